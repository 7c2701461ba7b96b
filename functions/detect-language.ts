/** GET /api/detect-language → { language }: country first (IR → fa, NL/BE → nl), then Accept-Language, then en. */
import type { Config, Context } from "@netlify/functions";
import type { DetectLanguageAnswer } from "#shared/api/common.ts";
import { json, route } from "./_lib/http/http.ts";
import { detectLanguage } from "./_lib/http/language.ts";
import { ROUTES } from "#shared/routes.ts";

export default route({
  GET: async (req: Request, context: Context) =>
    json<DetectLanguageAnswer>({
      language: detectLanguage(context?.geo?.country?.code, req.headers.get("accept-language")),
    }),
});

export const config: Config = { path: ROUTES.detectLanguage };
