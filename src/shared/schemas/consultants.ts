/** Making an account a consultant (POST /api/admin/consultants): which team member they are, and which account. */
import * as z from "zod/mini";
import { consultantId } from "./meeting-staff.ts";

export const consultantLinkSchema = z.strictObject({
  consultant: consultantId,
  userId: z.number({ error: "userId must be an account's id" }).check(z.int(), z.positive(), z.lte(2_147_483_647)),
});

/** PATCH /api/admin/consultants/{id}: whether they take new meetings. */
export const consultantActiveSchema = z.strictObject({
  active: z.boolean({ error: "active must be true or false" }),
});
