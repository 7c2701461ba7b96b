import { describe, expect, test } from "vitest";
import team from "../data/team.json" with { type: "json" };
import {
  calendarForChoice,
  consultantRules,
  FIRST_CONSULTANT_ID,
  pickFairly,
  rankFairly,
  takesMeeting,
  unionOfSlots,
} from "./consultants.ts";
import { defaultOfficeRules } from "./office.ts";

const load = (id: string, recent: number, lastBookedAt: string | null = null) => ({ id, recent, lastBookedAt });

describe("the fair rule", () => {
  test("picks the consultant with the fewest meetings in the last 30 days", () => {
    const picked = pickFairly([load("a", 5), load("b", 3), load("c", 4)]);
    expect(picked?.id).toBe("b");
  });
  test("on a tie, the one whose latest meeting was booked longest ago; none at all is longest", () => {
    expect(pickFairly([load("a", 2, "2026-11-20T10:00:00.000Z"), load("b", 2, "2026-11-18T10:00:00.000Z")])?.id).toBe(
      "b",
    );
    expect(pickFairly([load("a", 0, "2026-11-20T10:00:00.000Z"), load("b", 0, null)])?.id).toBe("b");
  });
  test("then by id, so the order given never decides", () => {
    const loads = [load("kaveh", 1, null), load("anna", 1, null), load("pieter", 1, null)];
    expect(rankFairly(loads).map((l) => l.id)).toEqual(["anna", "kaveh", "pieter"]);
    expect(rankFairly([...loads].reverse()).map((l) => l.id)).toEqual(["anna", "kaveh", "pieter"]);
  });
  test("keeps the reason: the loads compared, ranked", () => {
    expect(pickFairly([load("b", 1), load("a", 0)])).toEqual({
      id: "a",
      assignment: { rule: "fair", compared: [load("a", 0), load("b", 1)] },
    });
  });
  test("nobody free: nobody picked", () => {
    expect(pickFairly([])).toBeNull();
  });
});

describe("who takes a meeting", () => {
  const profile = { languages: ["fa", "en"] as const, services: ["startup-visa"] as const };
  test("by the language and the service asked for, either left open", () => {
    expect(takesMeeting({ ...profile, languages: [...profile.languages], services: [...profile.services] }, {})).toBe(
      true,
    );
    expect(takesMeeting({ languages: ["fa", "en"], services: ["startup-visa"] }, { language: "fa" })).toBe(true);
    expect(takesMeeting({ languages: ["fa", "en"], services: ["startup-visa"] }, { language: "nl" })).toBe(false);
    expect(takesMeeting({ languages: ["fa", "en"], services: ["startup-visa"] }, { service: "startup-studio" })).toBe(
      false,
    );
  });
  test("a consultant without a profile takes any meeting (their team member was renamed)", () => {
    expect(takesMeeting(undefined, { language: "fa", service: "startup-studio" })).toBe(true);
  });
  test("the first consultant of a new install is the first team member", () => {
    expect(FIRST_CONSULTANT_ID).toBe(team[0]!.id);
  });
});

describe("a consultant's rules and the choice's calendar", () => {
  const office = defaultOfficeRules;
  const mornings = [1, 2, 3].map((weekday) => ({ weekday: weekday as 1 | 2 | 3, opens: "09:00", closes: "12:00" }));
  test("own hours replace the office's; own closures add to the office's", () => {
    const own = consultantRules(office, { hours: mornings, closures: [{ from: "2027-01-04", to: "2027-01-05" }] });
    expect(own.hours).toEqual(mornings);
    expect(own.closedRanges).toEqual([
      ...office.closedRanges,
      { from: "2027-01-04", to: "2027-01-05", yearly: undefined },
    ]);
    expect(consultantRules(office, { hours: null, closures: [] })).toEqual(office);
  });
  test("the union of slots: each time once, ascending", () => {
    expect(unionOfSlots([["10:00", "09:00"], ["09:00", "11:30"], []])).toEqual(["09:00", "10:00", "11:30"]);
  });
  test("a day is closed or full for the choice only when it is for everyone working that day", () => {
    const away = consultantRules(office, { hours: mornings, closures: [{ from: "2027-01-04", to: "2027-01-04" }] });
    const choice = [
      { rules: away, fullDates: [] },
      { rules: office, fullDates: ["2027-01-05"] },
    ];
    const marks = calendarForChoice("2027-01-04", "2027-01-08", choice);
    expect(marks.weekdays).toEqual([1, 2, 3, 4, 5]);
    // 4 January: one is away, the other open. 5 January: one full, the other has room.
    expect(marks.closedDates).toEqual([]);
    expect(marks.fullDates).toEqual([]);
    const alone = calendarForChoice("2027-01-04", "2027-01-08", [{ rules: away, fullDates: ["2027-01-05"] }]);
    expect(alone).toMatchObject({ weekdays: [1, 2, 3], closedDates: ["2027-01-04"], fullDates: ["2027-01-05"] });
  });
});
