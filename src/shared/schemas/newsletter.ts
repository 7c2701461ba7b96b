/** Payload of a newsletter sign-up (POST /api/newsletter). */
import * as z from "zod/mini";
import { DEFAULT_LANGUAGE } from "../languages.ts";
import { breaksSingleLine } from "../text.ts";
import { email, language } from "./fields.ts";

export const newsletterSchema = z.object({
  email,
  language: z._default(language, DEFAULT_LANGUAGE),
  /**
   * The page the form was on (a path), recorded with the consent. A control character is refused
   * like in any field; anything else that is not a path (too long, not text) is dropped.
   */
  page: z.optional(
    z.pipe(
      z
        .unknown()
        .check(z.refine((v) => typeof v !== "string" || !breaksSingleLine(v), "page contains invalid characters")),
      z.transform((v) => (typeof v === "string" && v.length <= 200 && /^\/[^\s]*$/.test(v) ? v : undefined)),
    ),
  ),
});
