/** The panel's consultants: linking an account to a team member, and each one's switch and own hours. */
import * as z from "zod/mini";
import { weeklyHoursSchema } from "./availability.ts";
import { consultantId } from "./meeting-staff.ts";

/** POST /api/admin/consultants: which team member an account is. */
export const consultantLinkSchema = z.strictObject({
  consultant: consultantId,
  userId: z.number({ error: "userId must be an account's id" }).check(z.int(), z.positive(), z.lte(2_147_483_647)),
});

/**
 * PATCH /api/admin/consultants/{id}: whether they take new meetings, and their own weekly hours
 * (null: the office's), one or both.
 */
export const consultantChangeSchema = z
  .strictObject({
    active: z.optional(z.boolean({ error: "active must be true or false" })),
    hours: z.optional(z.nullable(weeklyHoursSchema)),
  })
  .check(z.refine((change) => change.active !== undefined || change.hours !== undefined, "Give active or hours"));
export type ConsultantChange = z.output<typeof consultantChangeSchema>;
