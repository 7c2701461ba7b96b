/**
 * POST /api/contact → 201 { success, id }: an enquiry, stored unprocessed, with the company's
 * notification and the visitor's acknowledgement queued in the same transaction (sent right after,
 * or retried later: a mail server that is down never changes the answer).
 * Without JavaScript the enquiry form posts here as a plain form; that request is answered with a
 * redirect to a thank-you or error page in the visitor's language, so no lead is lost to a script failure.
 */
import type { Config, Context } from "@netlify/functions";
import type { Kysely } from "kysely";
import { getDb } from "../db/client.ts";
import { createEnquiry } from "../db/enquiries.repository.ts";
import { isDatabaseUnavailable } from "../db/errors.ts";
import type { Database } from "../db/types.ts";
import type { EnquiryCreatedAnswer } from "../src/shared/api.ts";
import { DEFAULT_LANGUAGE, isLanguage, type Language } from "../src/shared/languages.ts";
import { enquirySchema, type EnquiryPayload } from "../src/shared/schemas.ts";
import { errorResponse, HttpError, isFormPost, json, readForm, readJson, route, validate } from "./_lib/http.ts";
import { submissionLanguage } from "./_lib/language.ts";
import { afterCommitDelivery, enqueueEnquiryEmails } from "./_lib/mail/outbox.ts";

export default route({
  POST: async (req, context) => {
    if (isFormPost(req)) return plainFormPost(req, context);
    const input = validate(enquirySchema, await readJson(req));
    const id = await storeEnquiry(getDb(), { ...input, language: submissionLanguage(req, input.language) }, context);
    return json<EnquiryCreatedAnswer>({ success: true, id }, 201);
  },
});

/** Stores the enquiry and queues its emails in one transaction, then tries to send them at once. */
async function storeEnquiry(
  db: Kysely<Database>,
  input: EnquiryPayload & { language: Language },
  context: Context,
): Promise<number> {
  const { enquiry, emails } = await db.transaction().execute(async (trx) => {
    const enquiry = await createEnquiry(trx, input);
    return { enquiry, emails: await enqueueEnquiryEmails(trx, enquiry) };
  });
  await afterCommitDelivery(db, emails, context);
  return enquiry.id;
}

/** The no-JavaScript path: the same validation and storage, answered with a 303 to a result page. */
async function plainFormPost(req: Request, context: Context): Promise<Response> {
  const form = await readForm(req).catch((error: unknown) => error);
  const fields = form instanceof URLSearchParams ? form : new URLSearchParams();
  const named = fields.get("lang");
  const lang = isLanguage(named) ? named : DEFAULT_LANGUAGE;
  const to = (page: "sent" | "error" | "unavailable") =>
    new Response(null, {
      status: 303,
      headers: { Location: `/${lang}/enquiry/${page}/`, "Cache-Control": "no-store" },
    });
  if (!(form instanceof URLSearchParams)) return to("error");
  try {
    const input = validate(enquirySchema, Object.fromEntries(fields));
    await storeEnquiry(getDb(), { ...input, language: lang }, context);
    return to("sent");
  } catch (error) {
    if (error instanceof HttpError) return to("error");
    errorResponse(error, req); // logs it
    return to(isDatabaseUnavailable(error) ? "unavailable" : "error");
  }
}

export const config: Config = { path: "/api/contact" };
