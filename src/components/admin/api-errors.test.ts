import { describe, expect, test } from "vitest";
import en from "#src/i18n/locales/en.json";
import fa from "#src/i18n/locales/fa.json";
import { ApiError, NetworkError } from "#src/lib/api-client.ts";
import { apiErrorText } from "./api-errors";

const texts = en.admin.apiErrors;
const refused = (status: number, data: unknown = { success: false, message: "English from the server" }) =>
  new ApiError("English from the server", status, data);

describe("apiErrorText", () => {
  test("names each known status in the panel's words, never the server's English", () => {
    expect(apiErrorText(refused(400), texts)).toBe(texts.badRequest);
    expect(apiErrorText(refused(401), texts)).toBe(texts.sessionEnded);
    expect(apiErrorText(refused(403), texts)).toBe(texts.notAllowed);
    expect(apiErrorText(refused(404), texts)).toBe(texts.notFound);
    expect(apiErrorText(refused(409), texts)).toBe(texts.conflict);
    expect(apiErrorText(refused(429), texts)).toBe(texts.tooMany);
    expect(apiErrorText(refused(503), texts)).toBe(texts.unavailable);
  });

  test("tells a cross-site refusal by its code", () => {
    expect(apiErrorText(refused(403, { success: false, message: "x", code: "crossSiteRefused" }), texts)).toBe(
      texts.crossSite,
    );
  });

  test("prefers the caller's sentence for a status it knows more about", () => {
    expect(apiErrorText(refused(409), texts, { 409: "last admin" })).toBe("last admin");
    expect(apiErrorText(refused(404), texts, { 409: "last admin" })).toBe(texts.notFound);
  });

  test("falls back to the generic sentence, and says so when nothing answered", () => {
    expect(apiErrorText(refused(500), texts)).toBe(texts.generic);
    expect(apiErrorText(refused(418, "teapot"), texts)).toBe(texts.generic);
    expect(apiErrorText(new Error("boom"), texts)).toBe(texts.generic);
    expect(apiErrorText(undefined, texts)).toBe(texts.generic);
    expect(apiErrorText(new NetworkError(), texts)).toBe(texts.offline);
  });

  test("speaks the language it is given", () => {
    expect(apiErrorText(refused(429), fa.admin.apiErrors)).toBe(fa.admin.apiErrors.tooMany);
  });
});
