/** Payload of a connected calendar feed (POST /api/admin/availability/calendars). */
import * as z from "zod/mini";
import { breaksSingleLine } from "../text.ts";
import { email, noControl } from "./fields.ts";

/** A calendar feed the admin connects: its busy times keep visitors out of those slots. */
export const calendarFeedSchema = z.strictObject({
  name: z
    .string({ error: "name must be text" })
    .check(
      z.trim(),
      z.minLength(1, "name is required"),
      z.maxLength(80, "name must be at most 80 characters"),
      z.refine(...noControl("name")),
    ),
  // Apple's calendars hand out webcal:// addresses: the same address over https.
  url: z.pipe(
    z.string({ error: "url must be an http(s) address" }).check(
      z.trim(),
      z.maxLength(2000, "url must be at most 2000 characters"),
      z.refine(
        (v) => /^(https?|webcal):\/\/[^\s]+$/i.test(v) && !breaksSingleLine(v),
        "url must be an http(s) address",
      ),
    ),
    z.transform((v) => v.replace(/^webcal:/i, "https:")),
  ),
  username: z.optional(
    z
      .string({ error: "username must be text" })
      .check(z.maxLength(200, "username is too long"), z.refine(...noControl("username"))),
  ),
  password: z.optional(
    z
      .string({ error: "password must be text" })
      .check(z.maxLength(500, "password is too long"), z.refine(...noControl("password"))),
  ),
  /** The calendar's account address: invitations it declined do not block (empty: none). */
  ownerEmail: z.optional(z.union([z.literal(""), email])),
});
export type CalendarFeedPayload = z.output<typeof calendarFeedSchema>;
