/**
 * POST /api/newsletter { email, language } → 201 when new, 200 when already subscribed (not an error).
 * Without JavaScript the footer form posts here as a plain form (email, lang); that request is
 * answered with a redirect to a result page in the visitor's language.
 */
import type { Config } from "@netlify/functions";
import { getDb } from "../db/client.ts";
import { isDatabaseUnavailable } from "../db/errors.ts";
import { subscribe } from "../db/newsletter.repository.ts";
import type { MessageAnswer } from "../src/shared/api.ts";
import { DEFAULT_LANGUAGE, isLanguage } from "../src/shared/languages.ts";
import { newsletterSchema } from "../src/shared/schemas.ts";
import { errorResponse, HttpError, isFormPost, json, readForm, readJson, route, validate } from "./_lib/http.ts";

export default route({
  POST: async (req) => {
    if (isFormPost(req)) return plainFormPost(req);
    const { email, language } = validate(newsletterSchema, await readJson(req));
    const { created } = await subscribe(getDb(), email, language);
    return json<MessageAnswer>(
      { success: true, message: created ? "Subscribed" : "Already subscribed" },
      created ? 201 : 200,
    );
  },
});

/** The no-JavaScript path: the same validation and storage, answered with a 303 to a result page. */
async function plainFormPost(req: Request): Promise<Response> {
  const form = await readForm(req).catch((error: unknown) => error);
  const fields = form instanceof URLSearchParams ? form : new URLSearchParams();
  const named = fields.get("lang");
  const lang = isLanguage(named) ? named : DEFAULT_LANGUAGE;
  const to = (page: "subscribed" | "invalid" | "error" | "unavailable") =>
    new Response(null, {
      status: 303,
      headers: { Location: `/${lang}/newsletter/${page}/`, "Cache-Control": "no-store" },
    });
  if (!(form instanceof URLSearchParams)) return to("error");
  try {
    const { email, language } = validate(newsletterSchema, { email: fields.get("email") ?? "", language: lang });
    await subscribe(getDb(), email, language);
    return to("subscribed");
  } catch (error) {
    if (error instanceof HttpError) return to("invalid");
    errorResponse(error, req); // logs it
    return to(isDatabaseUnavailable(error) ? "unavailable" : "error");
  }
}

export const config: Config = { path: "/api/newsletter" };
