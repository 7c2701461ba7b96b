/** Payloads of enquiries: the visitor's form (POST /api/contact) and the admin's PATCH. */
import * as z from "zod/mini";
import { LEAD_STAGES, LOST_REASON_MAX_LENGTH, MAX_VALUE_CENTS } from "../leads.ts";
import { LANGUAGES, type Language } from "../languages.ts";
import { SERVICE_IDS } from "../services.ts";
import { isCalendarDate } from "../dates.ts";
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

const rowId = (field: string) =>
  z
    .int({ error: `${field} must be a whole number` })
    .check(z.minimum(1, `${field} must be an id`), z.maximum(2_147_483_647, `${field} must be an id`));

/**
 * PATCH /api/admin/submissions/{id}: a change of a lead's stage (lost names a reason, client the
 * service won and, optionally, its value in euro cents), owner (an admin's id, or null for none)
 * and follow-up date (or null), based on the `version` the admin saw.
 */
export const leadPatchSchema = z
  .strictObject({
    version: z.int({ error: "version must be a whole number" }).check(z.minimum(0, "version must not be negative")),
    stage: z.optional(z.enum(LEAD_STAGES, { error: `stage must be one of ${LEAD_STAGES.join(", ")}` })),
    lostReasonId: z.optional(rowId("lostReasonId")),
    clientService: z.optional(z.enum(SERVICE_IDS, { error: `clientService must be one of ${SERVICE_IDS.join(", ")}` })),
    clientValueCents: z.optional(
      z.nullable(
        z
          .int({ error: "clientValueCents must be a whole number of cents" })
          .check(
            z.minimum(0, "clientValueCents must not be negative"),
            z.maximum(MAX_VALUE_CENTS, `clientValueCents must be at most ${MAX_VALUE_CENTS}`),
          ),
      ),
    ),
    ownerId: z.optional(z.nullable(rowId("ownerId"))),
    followUpOn: z.optional(
      z.nullable(
        z
          .string({ error: "followUpOn must be a date" })
          .check(z.refine(isCalendarDate, "followUpOn must be a date, yyyy-MM-dd")),
      ),
    ),
  })
  .check(
    z.refine((p) => p.stage !== undefined || p.ownerId !== undefined || p.followUpOn !== undefined, {
      message: "Name a stage, an owner or a follow-up date to change",
    }),
    z.refine((p) => (p.stage === "lost") === (p.lostReasonId !== undefined), {
      message: "A lost lead needs a lostReasonId, and only a lost one",
      path: ["lostReasonId"],
    }),
    z.refine((p) => (p.stage === "client") === (p.clientService !== undefined), {
      message: "A client needs a clientService, and only a client",
      path: ["clientService"],
    }),
    z.refine((p) => p.stage === "client" || p.clientValueCents === undefined, {
      message: "Only a client has a value",
      path: ["clientValueCents"],
    }),
  );
export type LeadPatch = z.output<typeof leadPatchSchema>;

const label = (lang: string) =>
  z
    .string({ error: `label.${lang} must be text` })
    .check(
      z.trim(),
      z.minLength(1, `label.${lang} is required`),
      z.maxLength(LOST_REASON_MAX_LENGTH, `label.${lang} must be at most ${LOST_REASON_MAX_LENGTH} characters`),
      z.refine(...noControl(`label.${lang}`)),
    );

/** POST /api/admin/lost-reasons and PATCH /api/admin/lost-reasons/{id}: the label in every language. */
export const lostReasonSchema = z.strictObject({
  labels: z.strictObject(
    Object.fromEntries(LANGUAGES.map((lang) => [lang, label(lang)])) as Record<Language, ReturnType<typeof label>>,
  ),
});
/** PATCH /api/admin/lost-reasons/{id}: new labels, archived or offered again, or both. */
export const lostReasonPatchSchema = z
  .strictObject({
    labels: z.optional(lostReasonSchema.shape.labels),
    archived: z.optional(z.boolean({ error: "archived must be true or false" })),
  })
  .check(z.refine((p) => p.labels !== undefined || p.archived !== undefined, { message: "Name labels or archived" }));
