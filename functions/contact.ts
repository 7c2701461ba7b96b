/** POST /api/contact → 201 { success, id }: an enquiry, stored unprocessed. */
import type { Config } from "@netlify/functions";
import { getDb } from "../db/client.ts";
import { createSubmission } from "../db/contact.repository.ts";
import { contactSchema } from "../src/shared/schemas.ts";
import { json, readJson, route, validate } from "./_lib/http.ts";

export default route({
  POST: async (req) => {
    const input = validate(contactSchema, await readJson(req));
    const submission = await createSubmission(getDb(), input);
    return json({ success: true, id: submission.id }, 201);
  },
});

export const config: Config = { path: "/api/contact" };
