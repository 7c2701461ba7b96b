import { beforeAll, expect, test } from "vitest";
import en from "#src/i18n/locales/en.json";
import fa from "#src/i18n/locales/fa.json";
import { ADMIN_COPY_ID, adminText } from "./copy";

beforeAll(() => {
  // The page renders the panel's texts into one element (AdminCopy.astro); the formatters read it.
  const element = { dataset: { copy: JSON.stringify({ en: en.admin, fa: fa.admin }) } };
  globalThis.document = { getElementById: (id: string) => (id === ADMIN_COPY_ID ? element : null) } as never;
});

test("a time stamp joins its day and time with the language's comma: Persian writes ،", () => {
  const at = "2026-11-29T01:15:00.000Z";
  expect(adminText("fa").dateTime(at)).toMatch(/^[^,]+، [۰-۹]{2}:[۰-۹]{2}$/);
  expect(adminText("en").dateTime(at)).toMatch(/^[^،]+, \d{2}:\d{2}$/);
});
