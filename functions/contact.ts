/**
 * POST /api/contact → 201 { success, id }: an enquiry, stored unprocessed.
 * Without JavaScript the enquiry form posts here as a plain form; that request is answered with a
 * redirect to a thank-you or error page in the visitor's language, so no lead is lost to a script failure.
 */
import type { Config } from "@netlify/functions";
import { getDb, isDatabaseUnavailable } from "../db/client.ts";
import { createSubmission } from "../db/contact.repository.ts";
import { contactSchema, LANGUAGE_CODES } from "../src/shared/schemas.ts";
import { errorResponse, HttpError, isFormPost, json, readForm, readJson, route, validate } from "./_lib/http.ts";

export default route({
  POST: async (req) => {
    if (isFormPost(req)) return plainFormPost(req);
    const input = validate(contactSchema, await readJson(req));
    const submission = await createSubmission(getDb(), input);
    return json({ success: true, id: submission.id }, 201);
  },
});

/** The no-JavaScript path: the same validation and storage, answered with a 303 to a result page. */
async function plainFormPost(req: Request): Promise<Response> {
  const form = await readForm(req).catch((error: unknown) => error);
  const fields = form instanceof URLSearchParams ? form : new URLSearchParams();
  const lang = (LANGUAGE_CODES as readonly string[]).includes(fields.get("lang") ?? "") ? fields.get("lang") : "en";
  const to = (page: "sent" | "error" | "unavailable") => new Response(null, { status: 303, headers: { Location: `/${lang}/enquiry/${page}/`, "Cache-Control": "no-store" } });
  if (!(form instanceof URLSearchParams)) return to("error");
  try {
    const input = validate(contactSchema, Object.fromEntries(fields));
    await createSubmission(getDb(), input);
    return to("sent");
  } catch (error) {
    if (error instanceof HttpError) return to("error");
    errorResponse(error, req); // logs it
    return to(isDatabaseUnavailable(error) ? "unavailable" : "error");
  }
}

export const config: Config = { path: "/api/contact" };
