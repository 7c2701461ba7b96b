import { describe, expect, test } from "vitest";
import { defaultOfficeRules } from "./office.ts";
import { addDays } from "./dates.ts";
import { digestDay, waitingSince } from "./follow-ups.ts";
import {
  answerDeadlineDate,
  answerOverdueAt,
  isAnswerOverdue,
  isFollowUpDue,
  isWorkingDay,
  lastOverdueArrivalDate,
} from "./working-days.ts";

describe("working days", () => {
  test("are the weekdays with opening hours on which the office is open", () => {
    expect(isWorkingDay("2026-11-23", defaultOfficeRules)).toBe(true); // Monday
    expect(isWorkingDay("2026-11-28", defaultOfficeRules)).toBe(false); // Saturday
    expect(isWorkingDay("2026-12-25", defaultOfficeRules)).toBe(false); // Christmas
    expect(isWorkingDay("2026-12-24", defaultOfficeRules)).toBe(false); // a company closing day
    expect(isWorkingDay("2026-12-01", { ...defaultOfficeRules, closedDates: ["2026-12-01"] })).toBe(false);
  });

  test("an enquiry is answered in time up to the end of the 2nd working day after the day it came in", () => {
    expect(answerDeadlineDate("2026-11-23", defaultOfficeRules)).toBe("2026-11-25"); // Monday → Wednesday
    expect(answerDeadlineDate("2026-11-27", defaultOfficeRules)).toBe("2026-12-01"); // Friday → Tuesday
    expect(answerDeadlineDate("2026-11-28", defaultOfficeRules)).toBe("2026-12-01"); // Saturday → Tuesday
    // 23 December (Wednesday): 24, 25, 26 and 27 are closed, 28 and 29 are working days.
    expect(answerDeadlineDate("2026-12-23", defaultOfficeRules)).toBe("2026-12-29");
  });
});

describe("lastOverdueArrivalDate", () => {
  test("is the last arrival day whose two working days are over, and inverts answerDeadlineDate", () => {
    // Wednesday 2026-11-25: Monday's enquiry was due Wednesday (not late yet); Friday's before it was due Tuesday.
    expect(lastOverdueArrivalDate("2026-11-25", defaultOfficeRules)).toBe("2026-11-22");
    for (let day = "2026-11-01"; day < "2027-01-31"; day = addDays(day, 1)) {
      const last = lastOverdueArrivalDate(day, defaultOfficeRules);
      expect(answerDeadlineDate(last, defaultOfficeRules) < day, day).toBe(true);
      expect(answerDeadlineDate(addDays(last, 1), defaultOfficeRules) >= day, day).toBe(true);
    }
  });
});

describe("a lead waiting on us is overdue past two working days", () => {
  // Friday 2026-05-15, 17:00 in Amsterdam (CEST, UTC+2).
  const friday = new Date("2026-05-15T15:00:00Z");
  const at = (local: string) => new Date(`${local}+02:00`);

  test("received on Friday at 17:00: not overdue on Monday morning nor all Tuesday, overdue from Wednesday 00:00", () => {
    const rules = defaultOfficeRules;
    expect(isAnswerOverdue(friday, at("2026-05-18T09:00:00"), rules)).toBe(false); // Monday
    expect(isAnswerOverdue(friday, at("2026-05-19T23:59:59"), rules)).toBe(false); // Tuesday night
    expect(isAnswerOverdue(friday, at("2026-05-20T00:00:00"), rules)).toBe(true);
    expect(isAnswerOverdue(friday, at("2026-05-20T09:00:00"), rules)).toBe(true); // Wednesday morning
    expect(answerOverdueAt(friday, rules).toISOString()).toBe("2026-05-19T22:00:00.000Z");
  });

  test("a public holiday on the Monday in between moves the moment on by that day", () => {
    // Whit Monday 2026-05-25: received Friday 22 May at 17:00, due by Wednesday, overdue Thursday.
    const whitFriday = new Date("2026-05-22T15:00:00Z");
    expect(isWorkingDay("2026-05-25", defaultOfficeRules)).toBe(false);
    expect(isAnswerOverdue(whitFriday, at("2026-05-27T09:00:00"), defaultOfficeRules)).toBe(false);
    expect(isAnswerOverdue(whitFriday, at("2026-05-28T09:00:00"), defaultOfficeRules)).toBe(true);
    // Without the holiday switch the Monday counts again.
    const noHolidays = { ...defaultOfficeRules, publicHolidays: false };
    expect(isAnswerOverdue(whitFriday, at("2026-05-27T09:00:00"), noHolidays)).toBe(true);
  });

  test("an office closure on the Tuesday moves it too, and a closed range by every day it covers", () => {
    const closedTuesday = {
      ...defaultOfficeRules,
      closedRanges: [{ from: "2026-05-19", to: "2026-05-19", yearly: false }],
    };
    expect(isAnswerOverdue(friday, at("2026-05-20T09:00:00"), closedTuesday)).toBe(false);
    expect(isAnswerOverdue(friday, at("2026-05-21T09:00:00"), closedTuesday)).toBe(true);
    const closedDates = { ...defaultOfficeRules, closedDates: ["2026-05-18", "2026-05-19"] };
    expect(answerOverdueAt(friday, closedDates).toISOString()).toBe("2026-05-21T22:00:00.000Z"); // Friday 00:00
  });

  test("agrees with the lists' filter (lastOverdueArrivalDate) at every hour of two months", () => {
    const rules = defaultOfficeRules;
    for (let t = Date.parse("2026-11-01T00:00:00Z"); t < Date.parse("2027-01-01T00:00:00Z"); t += 7 * 3_600_000) {
      const received = new Date(t);
      for (const days of [1, 2, 3, 5, 9]) {
        const now = new Date(t + days * 86_400_000);
        const today = now.toLocaleDateString("sv-SE", { timeZone: rules.timeZone });
        const arrival = received.toLocaleDateString("sv-SE", { timeZone: rules.timeZone });
        expect(isAnswerOverdue(received, now, rules), `${received.toISOString()} at ${now.toISOString()}`).toBe(
          arrival <= lastOverdueArrivalDate(today, rules),
        );
      }
    }
  });
});

describe("follow-up dates and the digest's day", () => {
  test("a follow-up date is due from its own day on, office time", () => {
    // 23:30 UTC on 2026-11-23 is already the 24th in Amsterdam.
    expect(isFollowUpDue("2026-11-24", new Date("2026-11-23T22:59:00Z"), defaultOfficeRules)).toBe(false);
    expect(isFollowUpDue("2026-11-24", new Date("2026-11-23T23:30:00Z"), defaultOfficeRules)).toBe(true);
    expect(isFollowUpDue("2026-11-20", new Date("2026-11-23T23:30:00Z"), defaultOfficeRules)).toBe(true);
  });

  test("the digest is due on working days from 08:30 office time, never on a weekend or a holiday", () => {
    const rules = defaultOfficeRules;
    expect(digestDay(new Date("2026-11-23T07:29:59Z"), rules)).toBeNull(); // Monday 08:29:59 CET
    expect(digestDay(new Date("2026-11-23T07:30:00Z"), rules)).toBe("2026-11-23");
    expect(digestDay(new Date("2026-11-23T22:59:00Z"), rules)).toBe("2026-11-23");
    expect(digestDay(new Date("2026-11-28T09:00:00Z"), rules)).toBeNull(); // Saturday
    expect(digestDay(new Date("2026-12-25T09:00:00Z"), rules)).toBeNull(); // Christmas
    expect(digestDay(new Date("2026-05-25T07:30:00Z"), rules)).toBeNull(); // Whit Monday
    expect(digestDay(new Date("2026-05-26T06:30:00Z"), rules)).toBe("2026-05-26"); // 08:30 CEST
  });
});

describe("waitingSince: from the enquiry until a reply, and again from an unanswered answer", () => {
  const createdAt = new Date("2026-11-20T16:00:00Z");
  const answer = new Date("2026-11-24T09:00:00Z");
  test("a new lead waits since it came, whatever its messages", () => {
    expect(waitingSince({ stage: "new", createdAt, unansweredSince: null })).toEqual(createdAt);
    expect(waitingSince({ stage: "new", createdAt, unansweredSince: answer })).toEqual(createdAt);
  });
  test("an open lead waits since the answer no reply followed, and not without one", () => {
    for (const stage of ["replied", "meeting", "proposal"] as const) {
      expect(waitingSince({ stage, createdAt, unansweredSince: answer })).toEqual(answer);
      expect(waitingSince({ stage, createdAt, unansweredSince: null })).toBeNull();
    }
  });
  test("a won or lost lead that writes back does not wait", () => {
    for (const stage of ["client", "lost"] as const)
      expect(waitingSince({ stage, createdAt, unansweredSince: answer })).toBeNull();
  });
  test("an answer on a Friday at 17:00 is overdue on Wednesday, not on Monday", () => {
    const friday = new Date("2026-11-20T16:00:00Z");
    const since = waitingSince({
      stage: "replied",
      createdAt: new Date("2026-11-02T09:00:00Z"),
      unansweredSince: friday,
    })!;
    expect(isAnswerOverdue(since, new Date("2026-11-23T08:00:00Z"), defaultOfficeRules)).toBe(false);
    expect(isAnswerOverdue(since, new Date("2026-11-25T08:00:00Z"), defaultOfficeRules)).toBe(true);
  });
});
