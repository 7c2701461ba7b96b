import { describe, expect, test } from "vitest";
import { team } from "#src/data/content.ts";
import type { Language } from "#shared/languages.ts";
import {
  ANYONE,
  consultantName,
  consultantQuery,
  isBookable,
  keptChoice,
  orderByLanguage,
  placeOf,
  placeOfMeeting,
  speaksPageLanguage,
  spokenLanguages,
} from "./consultant-choice.ts";

const people = [
  { id: "pieter", name: "Pieter", languages: ["nl", "en"] as Language[] },
  { id: "nasrin", name: "Nasrin", languages: ["fa", "en", "nl"] as Language[] },
  { id: "kaveh", name: "Kaveh", languages: ["fa", "en"] as Language[] },
];
const ids = (list: { id: string }[]) => list.map((m) => m.id);

describe("preselection by the page's language", () => {
  test("a Persian page offers the Persian speakers first, in the team's order, and hides nobody", () => {
    expect(ids(orderByLanguage(people, "fa"))).toEqual(["nasrin", "kaveh", "pieter"]);
  });

  test("a Dutch page offers the Dutch speakers first", () => {
    expect(ids(orderByLanguage(people, "nl"))).toEqual(["pieter", "nasrin", "kaveh"]);
  });

  test("an English page keeps the team's order when everyone speaks English", () => {
    expect(ids(orderByLanguage(people, "en"))).toEqual(["pieter", "nasrin", "kaveh"]);
  });

  test("marks who speaks the page's language", () => {
    expect(people.filter((m) => speaksPageLanguage(m, "fa")).map((m) => m.id)).toEqual(["nasrin", "kaveh"]);
  });

  test("the site's own team: on the Persian page every consultant offered first speaks Persian", () => {
    const ordered = orderByLanguage(team, "fa");
    const speakers = team.filter((m) => m.languages.includes("fa")).length;
    expect(speakers).toBeGreaterThan(0);
    expect(ordered.slice(0, speakers).every((m) => m.languages.includes("fa"))).toBe(true);
    expect(ordered).toHaveLength(team.length);
  });
});

describe("the slots asked for", () => {
  test("whoever is free passes the page's language", () => {
    expect(consultantQuery(ANYONE, "fa")).toEqual({ consultant: "any", language: "fa" });
  });

  test("a named consultant asks for their own slots only", () => {
    expect(consultantQuery("kaveh", "fa")).toEqual({ consultant: "kaveh" });
  });
});

describe("who can be booked", () => {
  const listed = [{ id: "nasrin", languages: ["fa"], services: [] }];

  test("a server that lists no consultants books the office: nobody is taken off", () => {
    expect(isBookable("pieter", undefined)).toBe(true);
  });

  test("a team member the server does not list cannot be chosen", () => {
    expect(isBookable("pieter", listed)).toBe(false);
    expect(isBookable("nasrin", listed)).toBe(true);
  });

  test("a choice made before the list came falls back to whoever is free when that person is not listed", () => {
    expect(keptChoice("pieter", listed)).toBe(ANYONE);
    expect(keptChoice("nasrin", listed)).toBe("nasrin");
    expect(keptChoice(ANYONE, [])).toBe(ANYONE);
  });

  test("an id the server answers with names a team member, else nobody", () => {
    expect(consultantName("kaveh", people)).toBe("Kaveh");
    expect(consultantName("someone-else", people)).toBeNull();
    expect(consultantName(null, people)).toBeNull();
  });
});

describe("places", () => {
  test("a posted value that is no place becomes the office", () => {
    expect(placeOf("video")).toBe("video");
    expect(placeOf("garden")).toBe("office");
    expect(placeOf("__proto__")).toBe("office");
    expect(placeOf(null)).toBe("office");
  });

  test("the place of an answered meeting, from `place` or its location", () => {
    expect(placeOfMeeting({ place: "phone" })).toBe("phone");
    expect(placeOfMeeting({ location: { kind: "video" } })).toBe("video");
    expect(placeOfMeeting({})).toBeNull();
  });
});

describe("the languages a consultant speaks, in the page's language", () => {
  test("the page's language comes first", () => {
    expect(spokenLanguages("en", ["fa", "en", "nl"])).toBe("English, Persian, and Dutch");
    expect(spokenLanguages("nl", ["fa", "en", "nl"])).toBe("Nederlands, Perzisch en Engels");
  });

  test("Persian as Persian writes a list: no comma before و, no right-to-left marks", () => {
    expect(spokenLanguages("fa", ["nl", "en", "fa"])).toBe("فارسی، هلندی و انگلیسی");
    expect(spokenLanguages("fa", ["nl", "en"])).toBe("هلندی و انگلیسی");
  });
});
