/**
 * POST /api/newsletter { email, language } → 201 when new, 200 when already subscribed (not an error).
 * Without JavaScript the footer form posts here as a plain form (email, lang); that request is
 * answered with a redirect to a result page in the visitor's language. Both paths pass the bot traps
 * (functions/_lib/form-guard.ts) and the sign-ups-per-address limit (functions/_lib/limits.ts).
 */
import type { Config, Context } from "@netlify/functions";
import { getDb } from "../db/client.ts";
import { isDatabaseUnavailable } from "../db/errors.ts";
import { subscribe } from "../db/newsletter.repository.ts";
import { plainT } from "../src/i18n/plain.ts";
import type { MessageAnswer } from "../src/shared/api.ts";
import { HONEYPOT_FIELD, TOKEN_FIELD } from "../src/shared/form-guard.ts";
import { DEFAULT_LANGUAGE, isLanguage } from "../src/shared/languages.ts";
import { newsletterSchema } from "../src/shared/schemas.ts";
import { checkFormToken, guardJson, honeypotFilled } from "./_lib/form-guard.ts";
import { confirmPage, refusedPage, tooManyPage } from "./_lib/form-page.ts";
import {
  clientIp,
  errorResponse,
  HttpError,
  isFormPost,
  json,
  readForm,
  readJson,
  requireSameOrigin,
  route,
  validate,
} from "./_lib/http.ts";
import { newsletterVerdict } from "./_lib/limits.ts";

const FORM_ANCHOR = "newsletter";

export default route({
  POST: async (req, context) => {
    if (isFormPost(req)) return plainFormPost(req, context);
    requireSameOrigin(req);
    const body = await readJson(req);
    const { email, language } = validate(newsletterSchema, body);
    const db = getDb();
    await guardJson(db, body);
    await newsletterVerdict(db, clientIp(req, context));
    const { created } = await subscribe(db, email, language);
    return json<MessageAnswer>(
      { success: true, message: created ? "Subscribed" : "Already subscribed" },
      created ? 201 : 200,
    );
  },
});

/** The no-JavaScript path: the same checks and storage, answered with a 303 to a result page (see contact.ts). */
async function plainFormPost(req: Request, context: Context): Promise<Response> {
  const form = await readForm(req).catch((error: unknown) => error);
  const fields = form instanceof URLSearchParams ? form : new URLSearchParams();
  const named = fields.get("lang");
  const lang = isLanguage(named) ? named : DEFAULT_LANGUAGE;
  const to = (page: "subscribed" | "invalid" | "error" | "unavailable") =>
    new Response(null, {
      status: 303,
      headers: { Location: `/${lang}/newsletter/${page}/`, "Cache-Control": "no-store" },
    });
  try {
    requireSameOrigin(req);
  } catch {
    return refusedPage(lang, FORM_ANCHOR);
  }
  if (!(form instanceof URLSearchParams)) return to("error");
  if (honeypotFilled(fields.get(HONEYPOT_FIELD))) return to("error");
  try {
    const { email, language } = validate(newsletterSchema, { email: fields.get("email") ?? "", language: lang });
    const db = getDb();
    const problem = await checkFormToken(db, fields.get(TOKEN_FIELD));
    if (problem === "used") return to("subscribed");
    if (problem) {
      const tr = plainT(lang);
      return confirmPage({
        lang,
        action: "/api/newsletter",
        fields: { email, lang },
        summary: [[tr("newsletter.emailLabel"), email]],
        submit: tr("formGuard.confirmNewsletter"),
        formAnchor: FORM_ANCHOR,
      });
    }
    await newsletterVerdict(db, clientIp(req, context));
    await subscribe(db, email, language);
    return to("subscribed");
  } catch (error) {
    if (error instanceof HttpError && error.status === 429) {
      return tooManyPage(lang, error.headers["Retry-After"] ?? "3600", FORM_ANCHOR);
    }
    if (error instanceof HttpError) return to("invalid");
    errorResponse(error, req); // logs it
    return to(isDatabaseUnavailable(error) ? "unavailable" : "error");
  }
}

export const config: Config = { path: "/api/newsletter" };
