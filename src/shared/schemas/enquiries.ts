/** Payloads of enquiries: the visitor's form (POST /api/contact) and the admin's PATCH. */
import * as z from "zod/mini";
import { LIMITS, MESSAGES, email, language, noControl, text } from "./fields.ts";
import { leadSourceSchema } from "./sources.ts";

/**
 * An enquiry. `service` is any non-empty text: the form offers the catalogue of
 * src/shared/services.ts, and a value outside it is stored and shown as it is.
 */
export const enquirySchema = z.object({
  firstName: text(2, LIMITS.name, MESSAGES.firstName, "First name"),
  lastName: text(2, LIMITS.name, MESSAGES.lastName, "Last name"),
  email,
  company: z.pipe(
    z.nullable(
      z.optional(
        z
          .string({ error: "Company must be text" })
          .check(
            z.trim(),
            z.maxLength(LIMITS.company, `Company must be at most ${LIMITS.company} characters`),
            z.refine(...noControl("Company")),
          ),
      ),
    ),
    z.transform((v) => (v ? v : null)),
  ),
  service: text(1, LIMITS.service, MESSAGES.service, "Service"),
  message: text(10, LIMITS.message, MESSAGES.message, "Message", { multiline: true }),
  /** The visitor's language, for the emails about this enquiry. Optional: the server then takes the page's. */
  language: z.optional(language),
  /** Where the enquiry came from (src/shared/schemas/sources.ts). */
  source: leadSourceSchema,
});
export type EnquiryInput = z.input<typeof enquirySchema>;
export type EnquiryPayload = z.output<typeof enquirySchema>;

export const enquiryPatchSchema = z.strictObject({
  isProcessed: z.boolean({ error: "isProcessed must be true or false" }),
});
