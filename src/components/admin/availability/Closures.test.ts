import { expect, test } from "vitest";
import en from "#src/i18n/locales/en.json";
import nl from "#src/i18n/locales/nl.json";
import fa from "#src/i18n/locales/fa.json";
import { closureNote } from "./Closures";

test("the seeded closure notes read in the panel's language; a note staff wrote stays as written", () => {
  expect(closureNote({ copy: fa.admin }, "Christmas Eve")).toEqual({ text: "شب کریسمس", own: false });
  expect(closureNote({ copy: nl.admin }, "New Year's Eve")).toEqual({ text: "Oudejaarsdag", own: false });
  expect(closureNote({ copy: en.admin }, "Christmas Eve")).toEqual({ text: "Christmas Eve", own: false });
  expect(closureNote({ copy: fa.admin }, "Teamdag")).toEqual({ text: "Teamdag", own: true });
  expect(closureNote({ copy: fa.admin }, "constructor")).toEqual({ text: "constructor", own: true });
});
