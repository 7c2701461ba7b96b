/** POST /api/newsletter { email, language } → 201 when new, 200 when already subscribed (not an error). */
import type { Config } from "@netlify/functions";
import { getDb } from "../db/client.ts";
import { subscribe } from "../db/newsletter.repository.ts";
import type { MessageAnswer } from "../src/shared/api.ts";
import { newsletterSchema } from "../src/shared/schemas.ts";
import { json, readJson, route, validate } from "./_lib/http.ts";

export default route({
  POST: async (req) => {
    const { email, language } = validate(newsletterSchema, await readJson(req));
    const { created } = await subscribe(getDb(), email, language);
    return json<MessageAnswer>(
      { success: true, message: created ? "Subscribed" : "Already subscribed" },
      created ? 201 : 200,
    );
  },
});

export const config: Config = { path: "/api/newsletter" };
