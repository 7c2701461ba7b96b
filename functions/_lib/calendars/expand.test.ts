import { describe, expect, test } from "vitest";
import { busyIntervals } from "./expand.ts";

const ZONE = "Europe/Amsterdam";
const calendar = (...events: string[]) =>
  ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", ...events, "END:VCALENDAR"].join("\r\n");
const event = (...lines: string[]) => ["BEGIN:VEVENT", "DTSTAMP:20270101T000000Z", ...lines, "END:VEVENT"].join("\r\n");
const iso = (list: { start: number; end: number }[]) =>
  list.map((i) => [new Date(i.start).toISOString(), new Date(i.end).toISOString()]);
const window = (from: string, to: string) => [new Date(from), new Date(to)] as const;

describe("busyIntervals", () => {
  test("a weekly meeting at 10:00 Amsterdam time stays at 10:00 across the change to summer time (28 March 2027)", () => {
    const ics = calendar(
      event(
        "UID:weekly@test",
        "DTSTART;TZID=Europe/Amsterdam:20270315T100000",
        "DTEND;TZID=Europe/Amsterdam:20270315T110000",
        "RRULE:FREQ=WEEKLY;COUNT=4",
      ),
    );
    expect(iso(busyIntervals(ics, ...window("2027-03-01T00:00:00Z", "2027-05-01T00:00:00Z"), ZONE))).toEqual([
      ["2027-03-15T09:00:00.000Z", "2027-03-15T10:00:00.000Z"],
      ["2027-03-22T09:00:00.000Z", "2027-03-22T10:00:00.000Z"],
      ["2027-03-29T08:00:00.000Z", "2027-03-29T09:00:00.000Z"],
      ["2027-04-05T08:00:00.000Z", "2027-04-05T09:00:00.000Z"],
    ]);
  });

  test("EXDATE removes an occurrence, RECURRENCE-ID moves one, UNTIL ends the series", () => {
    const ics = calendar(
      event(
        "UID:s@test",
        "DTSTART;TZID=Europe/Amsterdam:20270301T090000",
        "DTEND;TZID=Europe/Amsterdam:20270301T093000",
        "RRULE:FREQ=DAILY;UNTIL=20270304T235959Z",
        "EXDATE;TZID=Europe/Amsterdam:20270302T090000",
      ),
      event(
        "UID:s@test",
        "RECURRENCE-ID;TZID=Europe/Amsterdam:20270303T090000",
        "DTSTART;TZID=Europe/Amsterdam:20270303T140000",
        "DTEND;TZID=Europe/Amsterdam:20270303T150000",
      ),
    );
    expect(iso(busyIntervals(ics, ...window("2027-02-01T00:00:00Z", "2027-04-01T00:00:00Z"), ZONE))).toEqual([
      ["2027-03-01T08:00:00.000Z", "2027-03-01T08:30:00.000Z"],
      ["2027-03-03T13:00:00.000Z", "2027-03-03T14:00:00.000Z"],
      ["2027-03-04T08:00:00.000Z", "2027-03-04T08:30:00.000Z"],
    ]);
  });

  test("a cancelled single occurrence of a series does not block", () => {
    const ics = calendar(
      event("UID:c@test", "DTSTART:20270301T090000Z", "DURATION:PT1H", "RRULE:FREQ=DAILY;COUNT=2"),
      event(
        "UID:c@test",
        "RECURRENCE-ID:20270302T090000Z",
        "DTSTART:20270302T090000Z",
        "DURATION:PT1H",
        "STATUS:CANCELLED",
      ),
    );
    expect(iso(busyIntervals(ics, ...window("2027-03-01T00:00:00Z", "2027-03-05T00:00:00Z"), ZONE))).toEqual([
      ["2027-03-01T09:00:00.000Z", "2027-03-01T10:00:00.000Z"],
    ]);
  });

  test("Tehran (UTC+3:30) and New York times without a VTIMEZONE; an all-day event covers the office's day", () => {
    const ics = calendar(
      event("UID:t@test", "DTSTART;TZID=Asia/Tehran:20270310T123000", "DTEND;TZID=Asia/Tehran:20270310T133000"),
      event(
        "UID:n@test",
        "DTSTART;TZID=America/New_York:20270312T090000",
        "DTEND;TZID=America/New_York:20270312T100000",
      ),
      event("UID:a@test", "DTSTART;VALUE=DATE:20270315", "DTEND;VALUE=DATE:20270316"),
    );
    expect(iso(busyIntervals(ics, ...window("2027-03-01T00:00:00Z", "2027-04-01T00:00:00Z"), ZONE))).toEqual([
      ["2027-03-10T09:00:00.000Z", "2027-03-10T10:00:00.000Z"],
      // New York changes to summer time on 14 March 2027: on the 12th it is still UTC-5
      ["2027-03-12T14:00:00.000Z", "2027-03-12T15:00:00.000Z"],
      ["2027-03-14T23:00:00.000Z", "2027-03-15T23:00:00.000Z"],
    ]);
  });

  test("free (TRANSP:TRANSPARENT), cancelled and declined events do not block", () => {
    const ics = calendar(
      event("UID:f@test", "DTSTART:20270301T090000Z", "DTEND:20270301T100000Z", "TRANSP:TRANSPARENT"),
      event("UID:x@test", "DTSTART:20270301T110000Z", "DTEND:20270301T120000Z", "STATUS:CANCELLED"),
      event(
        "UID:d@test",
        "DTSTART:20270301T130000Z",
        "DTEND:20270301T140000Z",
        "ATTENDEE;PARTSTAT=DECLINED:mailto:me@example.com",
      ),
      event(
        "UID:b@test",
        "DTSTART:20270301T150000Z",
        "DTEND:20270301T160000Z",
        "ATTENDEE;PARTSTAT=ACCEPTED:mailto:me@example.com",
      ),
    );
    expect(iso(busyIntervals(ics, ...window("2027-03-01T00:00:00Z", "2027-03-02T00:00:00Z"), ZONE))).toEqual([
      ["2027-03-01T15:00:00.000Z", "2027-03-01T16:00:00.000Z"],
    ]);
  });

  test("a daily series begun years before the window still reaches it; overlapping events merge", () => {
    const ics = calendar(
      event("UID:old@test", "DTSTART:20100101T080000Z", "DTEND:20100101T090000Z", "RRULE:FREQ=DAILY"),
      event("UID:o@test", "DTSTART:20270301T083000Z", "DTEND:20270301T100000Z"),
    );
    expect(iso(busyIntervals(ics, ...window("2027-03-01T00:00:00Z", "2027-03-02T00:00:00Z"), ZONE))).toEqual([
      ["2027-03-01T08:00:00.000Z", "2027-03-01T10:00:00.000Z"],
    ]);
  });

  test("events that begin long before the window and last into it still block (the quick check before expanding keeps them)", () => {
    const ics = calendar(
      // A three-week trip, begun 20 days before the window, by DTEND and by DURATION.
      event("UID:trip@test", "DTSTART;VALUE=DATE:20270209", "DTEND;VALUE=DATE:20270302"),
      event("UID:trip2@test", "DTSTART;TZID=Asia/Tehran:20270209T090000", "DURATION:P21D"),
      // Ends two days before the window: left out.
      event("UID:old@test", "DTSTART:20270225T090000Z", "DTEND:20270226T230000Z"),
      // A weekly series begun years before, its occurrence in the window kept.
      event("UID:w@test", "DTSTART;TZID=Europe/Amsterdam:20200302T100000", "DURATION:PT1H", "RRULE:FREQ=WEEKLY"),
    );
    expect(iso(busyIntervals(ics, ...window("2027-03-01T00:00:00Z", "2027-03-02T00:00:00Z"), ZONE))).toEqual([
      ["2027-02-08T23:00:00.000Z", "2027-03-02T05:30:00.000Z"],
    ]);
  });

  test("throws on text that is not iCalendar", () => {
    expect(() => busyIntervals("<html>nope</html>", new Date(0), new Date(1), ZONE)).toThrow();
  });
});
