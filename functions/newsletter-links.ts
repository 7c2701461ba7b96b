/**
 * The newsletter's links, answered where they lead: the pages /{lang}/newsletter/confirm/?token=…
 * and /{lang}/newsletter/unsubscribe/?token=… are static (a GET shows a button, so a mail scanner
 * that follows links changes nothing); their form posts back to the same URL, which this function
 * serves, and answers with a redirect to a result page. The unsubscribe URL is also the emails'
 * List-Unsubscribe: a POST with `List-Unsubscribe=One-Click` (RFC 8058), sent by mail providers
 * without cookies or origin, unsubscribes and answers 200. The signed token is the authority, so
 * these posts need no session and no same-origin check.
 */
import type { Config, Context } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import { isDatabaseUnavailable } from "#db/errors.ts";
import { confirmSubscription, unsubscribe } from "#db/newsletter.repository.ts";
import { now } from "#server/office.ts";
import { isLanguage, type Language } from "#shared/languages.ts";
import { errorResponse, isFormPost, json, readForm, route } from "./_lib/http/http.ts";
import { afterCommitDelivery, enqueueNewsletterWelcome } from "./_lib/mail/outbox.ts";
import { readLinkToken } from "./_lib/newsletter/links.ts";
import { ROUTES } from "#shared/routes.ts";

type Result = "confirmed" | "unsubscribed" | "link-invalid" | "error" | "unavailable";

const redirect = (lang: Language, result: Result) =>
  new Response(null, {
    status: 303,
    headers: { Location: `/${lang}/newsletter/${result}/`, "Cache-Control": "no-store" },
  });

const plain = (status: number, text: string) =>
  new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

export default route({
  POST: async (req, context) => {
    const url = new URL(req.url);
    const [lang, , action] = url.pathname.split("/").filter(Boolean);
    if (!isLanguage(lang) || (action !== "confirm" && action !== "unsubscribe"))
      return json({ success: false, message: "Not found" }, 404);
    const form = isFormPost(req) ? await readForm(req).catch(() => new URLSearchParams()) : new URLSearchParams();
    const token = url.searchParams.get("token") ?? form.get("token");
    const oneClick = form.get("List-Unsubscribe") === "One-Click";
    try {
      if (action === "confirm") return redirect(lang, await confirm(token, context));
      const id = readLinkToken("unsubscribe", token, now());
      if (id === null)
        return oneClick ? plain(400, "This unsubscribe link is not valid.") : redirect(lang, "link-invalid");
      // A subscriber already erased has nothing left to unsubscribe: the same answer.
      await unsubscribe(getDb(), id);
      return oneClick ? plain(200, "You are unsubscribed.") : redirect(lang, "unsubscribed");
    } catch (error) {
      errorResponse(error, req); // logs it
      if (oneClick) return plain(503, "Please try again later.");
      return redirect(lang, isDatabaseUnavailable(error) ? "unavailable" : "error");
    }
  },
});

/** Confirms the sign-up a token names and, the first time, queues the welcome email. */
async function confirm(token: string | null, context: Context): Promise<Result> {
  const id = readLinkToken("confirm", token, now());
  if (id === null) return "link-invalid";
  const db = getDb();
  const done = await db.transaction().execute(async (trx) => {
    const result = await confirmSubscription(trx, id);
    if (!result) return null;
    const emails = result.outcome === "confirmed" ? await enqueueNewsletterWelcome(trx, result.subscriber) : [];
    return { emails };
  });
  if (!done) return "link-invalid";
  void afterCommitDelivery(db, done.emails, context);
  return "confirmed";
}

export const config: Config = {
  // Each with and without the trailing slash the static pages have.
  path: [
    `${ROUTES.newsletterLinks.confirm}/`,
    ROUTES.newsletterLinks.confirm,
    `${ROUTES.newsletterLinks.unsubscribe}/`,
    ROUTES.newsletterLinks.unsubscribe,
  ],
  method: "POST",
};
