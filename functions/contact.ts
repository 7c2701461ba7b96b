/**
 * POST /api/contact → 201 { success, id }: an enquiry, stored unprocessed, with the company's
 * notification and the visitor's acknowledgement queued in the same transaction (sent right after,
 * or retried later: a mail server that is down never changes the answer).
 * Without JavaScript the enquiry form posts here as a plain form; that request is answered with a
 * redirect to a thank-you or error page in the visitor's language, so no lead is lost to a script failure.
 * Both paths pass the bot traps (functions/_lib/form-guard.ts) and the limits (functions/_lib/limits.ts):
 * over a soft limit the enquiry is stored and the company told, only the acknowledgement is skipped.
 */
import type { Config, Context } from "@netlify/functions";
import type { Kysely } from "kysely";
import { getDb } from "../db/client.ts";
import { createEnquiry } from "../db/enquiries.repository.ts";
import { isDatabaseUnavailable } from "../db/errors.ts";
import type { Database } from "../db/types.ts";
import { plainT, serviceNames } from "../src/i18n/plain.ts";
import type { EnquiryCreatedAnswer } from "../src/shared/api.ts";
import { TOKEN_FIELD } from "../src/shared/form-guard.ts";
import type { Language } from "../src/shared/languages.ts";
import { serviceDisplayName } from "../src/shared/services.ts";
import { enquirySchema, type EnquiryPayload } from "../src/shared/schemas.ts";
import { checkFormToken, guardJson } from "./_lib/form-guard.ts";
import { confirmPage, openPlainPost, tooManyPage } from "./_lib/form-page.ts";
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
} from "./_lib/http.ts";
import { submissionLanguage } from "./_lib/language.ts";
import { enquiryVerdict } from "./_lib/limits.ts";
import { afterCommitDelivery, enqueueEnquiryEmails } from "./_lib/mail/outbox.ts";

const FORM_ANCHOR = "contact-form";

export default route({
  POST: async (req, context) => {
    if (isFormPost(req)) return plainFormPost(req, context);
    requireSameOrigin(req);
    const db = getDb();
    const body = await readJson(req);
    const input = validate(enquirySchema, body);
    await guardJson(db, body);
    const id = await storeEnquiry(db, { ...input, language: submissionLanguage(req, input.language) }, req, context);
    return json<EnquiryCreatedAnswer>({ success: true, id }, 201);
  },
});

/** Counts the enquiry against the limits (429 past the flood limit), then stores it and queues its emails in one transaction. */
async function storeEnquiry(
  db: Kysely<Database>,
  input: EnquiryPayload & { language: Language },
  req: Request,
  context: Context,
): Promise<number> {
  const { acknowledge } = await enquiryVerdict(db, clientIp(req, context), input.email);
  const { enquiry, emails } = await db.transaction().execute(async (trx) => {
    const enquiry = await createEnquiry(trx, input);
    return { enquiry, emails: await enqueueEnquiryEmails(trx, enquiry, { acknowledge }) };
  });
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
    const db = getDb();
    const problem = await checkFormToken(db, fields.get(TOKEN_FIELD));
    // A token used before: this form was sent already (a double click, a reload); nothing new is stored.
    if (problem === "used") return to("sent");
    if (problem) return confirm(lang, fields, input);
    await storeEnquiry(db, { ...input, language: lang }, req, context);
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
    action: "/api/contact",
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

export const config: Config = { path: "/api/contact" };
