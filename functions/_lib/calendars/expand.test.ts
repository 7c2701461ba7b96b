import ICAL from "ical.js";
import { describe, expect, test, vi } from "vitest";
import { busyIntervals, expandCalendar, MAX_INTERVALS_PER_FEED } from "./expand.ts";

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

// Issue 29: feeds as exporters really write them, and feeds written to hurt.
describe("busyIntervals reads what exporters write (issue 29)", () => {
  const MEETING = ["UID:m@test", "DTSTART:20270301T090000Z", "DTEND:20270301T100000Z"];
  const BUSY = [["2027-03-01T09:00:00.000Z", "2027-03-01T10:00:00.000Z"]];
  const span = window("2027-03-01T00:00:00Z", "2027-03-02T00:00:00Z");
  const read = (ics: string) => iso(busyIntervals(ics, ...span, ZONE));

  test("a feed that starts with a byte order mark (U+FEFF)", () => {
    expect(read(`\uFEFF${calendar(event(...MEETING))}`)).toEqual(BUSY);
  });

  test("lowercase names (begin:vevent), and the event count is the same as in capitals", () => {
    const lower = calendar(event(...MEETING))
      .split("\r\n")
      .map((line) =>
        /^(BEGIN|END):/.test(line) ? line.toLowerCase() : line.replace(/^[^:;]+/, (name) => name.toLowerCase()),
      )
      .join("\r\n");
    expect(lower).toContain("begin:vevent");
    expect(read(lower)).toEqual(BUSY);
    expect(expandCalendar(lower, ...span, ZONE).events).toBe(1);
  });

  test("LF and bare CR line ends, folding with a tab, trailing spaces after BEGIN/END, no VERSION, blank and stray lines", () => {
    const lines = [
      "BEGIN:VCALENDAR",
      "PRODID:-//test//EN",
      "",
      "BEGIN:VEVENT  ",
      "SUMMARY:A long",
      "\ttitle",
      ...MEETING,
      "END:VEVENT\t",
      "<html>",
      "END:VCALENDAR",
    ];
    expect(read(lines.join("\n"))).toEqual(BUSY);
    expect(read(lines.join("\r"))).toEqual(BUSY);
  });

  test('a folded line that goes on with "end:" or "begin:" stays part of its text', () => {
    const ics = calendar(event(...MEETING, "DESCRIPTION:From the start to the", " end: 5pm, and", " begin: again"));
    expect(read(ics)).toEqual(BUSY);
  });

  test("two VCALENDARs one after the other are read as one feed", () => {
    const other = event("UID:o@test", "DTSTART:20270301T130000Z", "DTEND:20270301T140000Z");
    expect(read(`${calendar(event(...MEETING))}\r\n${calendar(other)}`)).toEqual([
      ...BUSY,
      ["2027-03-01T13:00:00.000Z", "2027-03-01T14:00:00.000Z"],
    ]);
  });
});

describe("an invitation the feed's owner declined does not block (issue 29)", () => {
  const span = window("2027-03-01T00:00:00Z", "2027-03-02T00:00:00Z");
  // Google's export: the organizer and every guest listed; the owner declined, another guest accepted.
  const invitation = event(
    "UID:inv@test",
    "DTSTART:20270301T090000Z",
    "DTEND:20270301T100000Z",
    "ORGANIZER;CN=Boss:mailto:boss@example.com",
    "ATTENDEE;PARTSTAT=ACCEPTED:mailto:boss@example.com",
    "ATTENDEE;PARTSTAT=ACCEPTED:mailto:colleague@example.com",
    "ATTENDEE;PARTSTAT=DECLINED:mailto:Owner@Example.com",
  );
  const withName = (name: string, ...events: string[]) =>
    [
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "PRODID:-//Google Inc//Google Calendar 70.9054//EN",
      `X-WR-CALNAME:${name}`,
      ...events,
      "END:VCALENDAR",
    ].join("\r\n");

  test("the owner is the account address entered with the feed", () => {
    expect(busyIntervals(calendar(invitation), ...span, ZONE, { owner: "owner@example.com" })).toEqual([]);
  });

  test("the owner is X-WR-CALNAME when it is an address (Google's primary calendar)", () => {
    expect(busyIntervals(withName("owner@example.com", invitation), ...span, ZONE)).toEqual([]);
  });

  test("an owner who accepted is busy, whatever the others answered", () => {
    const accepted = invitation
      .replace("PARTSTAT=DECLINED:mailto:Owner", "PARTSTAT=ACCEPTED:mailto:Owner")
      .replace(/ACCEPTED:mailto:boss/g, "DECLINED:mailto:boss");
    expect(busyIntervals(withName("owner@example.com", accepted), ...span, ZONE)).toHaveLength(1);
  });

  test("the owner's own event (ORGANIZER, not a guest) blocks though every guest declined", () => {
    const own = event(
      "UID:own@test",
      "DTSTART:20270301T090000Z",
      "DTEND:20270301T100000Z",
      "ORGANIZER:mailto:owner@example.com",
      "ATTENDEE;PARTSTAT=DECLINED:mailto:guest@example.com",
    );
    expect(busyIntervals(withName("owner@example.com", own), ...span, ZONE)).toHaveLength(1);
  });

  test("with no owner known (a calendar name that is no address), the event blocks unless every attendee declined", () => {
    expect(busyIntervals(withName("Work", invitation), ...span, ZONE)).toHaveLength(1);
    expect(expandCalendar(withName("Work", invitation), ...span, ZONE).owners).toEqual([]);
  });
});

describe("the work one feed can cause is bounded (issue 29)", () => {
  const span = window("2026-11-30T00:00:00Z", "2027-01-31T00:00:00Z");
  const singles = (n: number) =>
    calendar(
      ...Array.from({ length: n }, (_, i) => {
        const day = new Date(Date.UTC(2026, 11, 1) + (i % 50) * 86_400_000)
          .toISOString()
          .slice(0, 10)
          .replace(/-/g, "");
        const hour = String(8 + (i % 10)).padStart(2, "0");
        return event(`UID:single-${i}@test`, `DTSTART:${day}T${hour}0000Z`, `DTEND:${day}T${hour}2000Z`);
      }),
    );

  test("single events do not each scan the whole feed (16,000 events took 35.8 s: quadratic)", () => {
    const scans = vi.spyOn(ICAL.Component.prototype, "getAllSubcomponents");
    try {
      expandCalendar(singles(2_000), ...span, ZONE);
      // Once for the VTIMEZONEs and once for the VEVENTs of the calendar; before, once more per event.
      expect(scans.mock.calls.filter(([name]) => name === "vevent").length).toBe(1);
    } finally {
      scans.mockRestore();
    }
  });

  test("times in a zone the feed does not define look it up once, not once per time (16,000 events took 5.1 s: quadratic)", () => {
    // TZID=Europe/Amsterdam without a VTIMEZONE, as many exporters write it: ical.js found no zone
    // in the tree and scanned every component of the calendar again for each DTSTART and DTEND.
    const zoned = (n: number) =>
      calendar(
        ...Array.from({ length: n }, (_, i) =>
          event(
            `UID:zoned-${i}@test`,
            `DTSTART;TZID=${ZONE}:202612${String(1 + (i % 28)).padStart(2, "0")}T090000`,
            `DTEND;TZID=${ZONE}:202612${String(1 + (i % 28)).padStart(2, "0")}T093000`,
          ),
        ),
      );
    const scans = vi.spyOn(ICAL.Component.prototype, "getAllSubcomponents");
    try {
      const { intervals } = expandCalendar(zoned(2_000), ...span, ZONE);
      expect(iso(intervals)[0]).toEqual(["2026-12-01T08:00:00.000Z", "2026-12-01T08:30:00.000Z"]);
      expect(scans.mock.calls.filter(([name]) => name === "vtimezone").length).toBeLessThanOrEqual(2);
    } finally {
      scans.mockRestore();
    }
  });

  test("one FREQ=SECONDLY;INTERVAL=2 series (200,000 intervals, +53 MB before) makes one busy interval", () => {
    const ics = calendar(
      event("UID:two@test", "DTSTART:20261201T000000Z", "DURATION:PT1S", "RRULE:FREQ=SECONDLY;INTERVAL=2;COUNT=20000"),
    );
    expect(iso(busyIntervals(ics, ...span, ZONE))).toEqual([["2026-12-01T00:00:00.000Z", "2026-12-01T11:06:39.000Z"]]);
  });

  test("busy times closer than a meeting are one interval; a gap a meeting fits in is kept", () => {
    const ics = calendar(
      event("UID:a@test", "DTSTART:20270301T090000Z", "DTEND:20270301T093000Z"),
      event("UID:b@test", "DTSTART:20270301T095900Z", "DTEND:20270301T100000Z"),
      event("UID:c@test", "DTSTART:20270301T103000Z", "DTEND:20270301T110000Z"),
    );
    expect(iso(busyIntervals(ics, ...window("2027-03-01T00:00:00Z", "2027-03-02T00:00:00Z"), ZONE))).toEqual([
      ["2027-03-01T09:00:00.000Z", "2027-03-01T10:00:00.000Z"],
      ["2027-03-01T10:30:00.000Z", "2027-03-01T11:00:00.000Z"],
    ]);
  });

  test(`past its cap of separate busy times (${MAX_INTERVALS_PER_FEED} by default) the feed fails and says so`, () => {
    // Every hour for a year: 24 a day over the two months, each an hour apart.
    const ics = calendar(event("UID:h@test", "DTSTART:20261130T000000Z", "DURATION:PT1M", "RRULE:FREQ=HOURLY"));
    expect(() => busyIntervals(ics, ...span, ZONE, { maxIntervals: 1_000 })).toThrow(
      "more than 1,000 separate busy times in the booking horizon",
    );
  });

  test("10 FREQ=SECONDLY series from 1970 (a 2 KB feed; 11.4 s on the server's thread) stop at the step budget", () => {
    const ics = calendar(
      ...Array.from({ length: 10 }, (_, i) =>
        event(
          `UID:s${i}@test`,
          `DTSTART:19700101T0000${String(i).padStart(2, "0")}Z`,
          "DURATION:PT1S",
          "RRULE:FREQ=SECONDLY",
        ),
      ),
    );
    const started = performance.now();
    expect(() => busyIntervals(ics, ...span, ZONE, { maxSteps: 50_000 })).toThrow("more than 50,000 steps");
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
