/**
 * POST /api/newsletter { email, language, page } → 202, always the same answer: a sign-up is pending
 * until the address confirms it (double opt-in), so the answer never tells whether an address was
 * subscribed already. A new or pending address gets a confirmation email (at most one an hour per
 * address, and LIMITS.newsletterConfirmationPerMailbox per mailbox however it is spelled); an active
 * one gets nothing. While the breaker is tripped, sign-ups are refused (429 signUpsPaused). Without JavaScript the footer form posts here as a plain form (email,
 * lang, page); that request is answered with a redirect to a result page in the visitor's language.
 * Both paths pass the bot traps (functions/_lib/forms/form-guard.ts) and the sign-ups-per-address limit
 * (functions/_lib/forms/limits.ts).
 */
import type { Config, Context } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import { isDatabaseUnavailable } from "#db/errors.ts";
import { signUp, type SignUp } from "#db/newsletter.repository.ts";
import { now } from "#server/office.ts";
import { plainT } from "#src/i18n/plain.ts";
import type { MessageAnswer } from "#shared/api/common.ts";
import { GUARD_CODES, TOKEN_FIELD } from "#shared/form-guard.ts";
import { newsletterSchema } from "#shared/schemas/newsletter.ts";
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
import { newsletterVerdict } from "./_lib/forms/limits.ts";
import { afterCommitDelivery, enqueueNewsletterConfirmation } from "./_lib/mail/outbox.ts";
import { ROUTES } from "#shared/routes.ts";

const FORM_ANCHOR = "newsletter";

/** The one answer to every accepted sign-up. */
const SIGN_UP_ANSWER: MessageAnswer = {
  success: true,
  message: "Thank you: please confirm with the link we have emailed to this address.",
};

export default route({
  POST: async (req, context) => {
    if (isFormPost(req)) return plainFormPost(req, context);
    requireSameOrigin(req);
    const body = await readJson(req);
    const { email, language, page } = validate(newsletterSchema, body);
    const token = guardJson(body);
    const verdict = await newsletterVerdict(getDb(), { ip: clientIp(req, context), email, token });
    if (verdict.tokenUsed) throw tokenRefused("used");
    await storeSignUp({ email, language, page: page ?? null }, verdict.acknowledge, context);
    return json<MessageAnswer>(SIGN_UP_ANSWER, 202);
  },
});

/**
 * Records the sign-up and queues its confirmation (when its mailbox may get one: `mayConfirm`) in
 * one transaction. The email goes out in the background, so an address that gets one is not
 * answered later than one that does not.
 */
async function storeSignUp(input: SignUp, mayConfirm: boolean, context: Context): Promise<void> {
  const db = getDb();
  const emails = await db.transaction().execute(async (trx) => {
    const { confirm } = await signUp(trx, input, { mayConfirm });
    return confirm ? enqueueNewsletterConfirmation(trx, confirm, now()) : [];
  });
  void afterCommitDelivery(db, emails, context);
}

/** The no-JavaScript path: the same checks and storage, answered with a 303 to a result page (see contact.ts). */
async function plainFormPost(req: Request, context: Context): Promise<Response> {
  const post = await openPlainPost<"subscribed" | "invalid" | "unavailable">(req, "newsletter", FORM_ANCHOR);
  if ("answer" in post) return post.answer;
  const { fields, lang, to } = post;
  try {
    const { email, language, page } = validate(newsletterSchema, {
      email: fields.get("email") ?? "",
      language: lang,
      page: fields.get("page") ?? undefined,
    });
    const token = readFormToken(fields.get(TOKEN_FIELD));
    if (typeof token === "string") {
      const tr = plainT(lang);
      return confirmPage({
        lang,
        action: ROUTES.newsletter,
        fields: { email, lang, ...(page && { page }) },
        summary: [[tr("newsletter.emailLabel"), email]],
        submit: tr("formGuard.confirmNewsletter"),
        formAnchor: FORM_ANCHOR,
      });
    }
    // A token used before: this form was sent already (a double click, a reload); nothing new is stored.
    const verdict = await newsletterVerdict(getDb(), { ip: clientIp(req, context), email, token });
    if (!verdict.tokenUsed) await storeSignUp({ email, language, page: page ?? null }, verdict.acknowledge, context);
    return to("subscribed");
  } catch (error) {
    if (error instanceof HttpError && error.status === 429) {
      const paused = error.body.code === GUARD_CODES.paused;
      return tooManyPage(lang, error.headers["Retry-After"] ?? "3600", FORM_ANCHOR, paused ? "paused" : "tooMany");
    }
    if (error instanceof HttpError) return to("invalid");
    errorResponse(error, req); // logs it
    return to(isDatabaseUnavailable(error) ? "unavailable" : "error");
  }
}

export const config: Config = { path: ROUTES.newsletter };
