/**
 * GET /api/form-token → { success, token, validInMs, expiresInMs }: a signed "form shown at" token
 * for the next submission of a public form (functions/_lib/forms/form-guard.ts). The islands fetch one
 * when they hydrate and after each submission; the pages are static, so it cannot be in their HTML.
 */
import type { Config } from "@netlify/functions";
import { LIMITS } from "#shared/limits.ts";
import type { FormTokenAnswer } from "#shared/api/common.ts";
import { issueFormToken } from "./_lib/forms/form-guard.ts";
import { json, route } from "./_lib/http/http.ts";
import { ROUTES } from "#shared/routes.ts";

export default route({
  GET: async () =>
    json<FormTokenAnswer>({
      success: true,
      token: issueFormToken(),
      validInMs: LIMITS.formToken.minAgeSeconds * 1000,
      expiresInMs: LIMITS.formToken.maxAgeSeconds * 1000,
    }),
});

export const config: Config = { path: ROUTES.formToken };
