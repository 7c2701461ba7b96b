/**
 * POST /api/contact → 201 { success, id, reference }: an enquiry, stored unprocessed, with the company's
 * notification and the visitor's acknowledgement queued in the same statement (sent right after,
 * or retried later: a mail server that is down never changes the answer). Two database round trips
 * before the answer (functions/_tests/round-trips.test.ts).
 * Without JavaScript the enquiry form posts here as a plain form; that request is answered with a
 * redirect to a thank-you or error page in the visitor's language, so no lead is lost to a script failure.
 * Both paths pass the bot traps (functions/_lib/forms/form-guard.ts) and the limits (functions/_lib/forms/limits.ts):
 * over a soft limit the enquiry is stored and the company told, only the acknowledgement is skipped.
 */
import type { Config, Context } from "@netlify/functions";
import type { Kysely } from "kysely";
import { getDb } from "#db/client.ts";
import type { OnceKey } from "#db/admission.repository.ts";
import { newEnquiry, storeEnquiry } from "#db/enquiries.repository.ts";
import { isDatabaseUnavailable } from "#db/errors.ts";
import type { Database } from "#db/types.ts";
import { plainT, serviceNames } from "#src/i18n/plain.ts";
import type { EnquiryCreatedAnswer } from "#shared/api/enquiries.ts";
import { TOKEN_FIELD } from "#shared/form-guard.ts";
import type { Language } from "#shared/languages.ts";
import { serviceDisplayName } from "#shared/services.ts";
import { enquirySchema, type EnquiryPayload } from "#shared/schemas/enquiries.ts";
import { guardJson, readFormToken, tokenRefused } from "./_lib/forms/form-guard.ts";
import { confirmPage, openPlainPost, tooManyPage } from "./_lib/forms/form-page.ts";
import {
  clientIp,
  errorResponse,
  HttpError,
  isFormPost,
  json,
  readJson,
  requireSameOrigin,
  route,
  validate,
} from "./_lib/http/http.ts";
import { submissionLanguage } from "./_lib/http/language.ts";
import { enquiryVerdict } from "./_lib/forms/limits.ts";
import { afterCommitDelivery, enquiryEmails } from "./_lib/mail/outbox.ts";
import { enquiryReference } from "#shared/leads.ts";
import { ROUTES } from "#shared/routes.ts";
import type { LeadSource } from "#shared/sources.ts";
import { leadSource, refererPath } from "./_lib/sources.ts";

const FORM_ANCHOR = "contact-form";

export default route({
  POST: async (req, context) => {
    if (isFormPost(req)) return plainFormPost(req, context);
    requireSameOrigin(req);
    const body = await readJson(req);
    const input = validate(enquirySchema, body);
    const token = guardJson(body);
    const language = submissionLanguage(req, input.language);
    const source = leadSource(input.source, req);
    const id = await admitAndStore(getDb(), { ...input, language, source }, token, req, context);
    if (id === "tokenUsed") throw tokenRefused("used");
    return json<EnquiryCreatedAnswer>({ success: true, id, reference: enquiryReference(id) }, 201);
  },
});

/**
 * Two statements: the admission (the form token used up, the limits counted, 429 past the flood
 * limit, the enquiry's id reserved), then the enquiry stored with its emails. Answers its id, or
 * "tokenUsed" when the token was used before (nothing is counted or stored).
 */
async function admitAndStore(
  db: Kysely<Database>,
  input: EnquiryPayload & { language: Language; source: LeadSource | null },
  token: OnceKey,
  req: Request,
  context: Context,
): Promise<number | "tokenUsed"> {
  const verdict = await enquiryVerdict(db, { ip: clientIp(req, context), email: input.email, token });
  if (verdict.tokenUsed) return "tokenUsed";
  const enquiry = newEnquiry(input, { id: verdict.id!, at: verdict.at });
  const emails = await storeEnquiry(
    db,
    enquiry,
    enquiryEmails({ ...enquiry, source: input.source }, { acknowledge: verdict.acknowledge }),
    input.source,
  );
  await afterCommitDelivery(db, emails, context);
  return enquiry.id;
}

/**
 * The no-JavaScript path: the same checks and storage, answered with a 303 to a result page; a post
 * without a valid token gets the confirm page (the static form cannot carry one), a flood 429 and a
 * post from another site 403, each a small page in the visitor's language.
 */
async function plainFormPost(req: Request, context: Context): Promise<Response> {
  const post = await openPlainPost<"sent" | "unavailable">(req, "enquiry", FORM_ANCHOR);
  if ("answer" in post) return post.answer;
  const { fields, lang, to } = post;
  try {
    const input = validate(enquirySchema, Object.fromEntries(fields));
    const token = readFormToken(fields.get(TOKEN_FIELD));
    if (typeof token === "string") return confirm(lang, fields, input);
    // A token used before (admitAndStore's answer "tokenUsed") means this form was sent already (a
    // double click, a reload): nothing new is stored, and the visitor sees the same thank-you.
    // Without JavaScript the page of sending is the Referer; the visit's first touch is not known.
    const source = leadSource({ heard: fields.get("heard") }, req, refererPath(req));
    await admitAndStore(getDb(), { ...input, language: lang, source }, token, req, context);
    return to("sent");
  } catch (error) {
    if (error instanceof HttpError && error.status === 429) {
      return tooManyPage(lang, error.headers["Retry-After"] ?? "3600", FORM_ANCHOR);
    }
    if (error instanceof HttpError) return to("error");
    errorResponse(error, req); // logs it
    return to(isDatabaseUnavailable(error) ? "unavailable" : "error");
  }
}

/** The confirm page of an enquiry: what the visitor wrote, sent again with one click. */
function confirm(lang: Language, fields: URLSearchParams, input: EnquiryPayload): Response {
  const tr = plainT(lang);
  return confirmPage({
    lang,
    action: ROUTES.contact,
    fields: Object.fromEntries(fields),
    summary: [
      [tr("contact.form.firstName"), input.firstName],
      [tr("contact.form.lastName"), input.lastName],
      [tr("contact.form.email"), input.email],
      [tr("contact.form.company"), input.company ?? ""],
      [tr("contact.form.service"), serviceDisplayName(input.service, serviceNames(lang))],
      [tr("contact.form.message"), input.message],
    ],
    submit: tr("formGuard.confirmEnquiry"),
    formAnchor: FORM_ANCHOR,
  });
}

export const config: Config = { path: ROUTES.contact };
