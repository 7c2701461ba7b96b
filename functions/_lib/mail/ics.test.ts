import ICAL from "ical.js";
import { describe, expect, test } from "vitest";
import { addDays } from "#shared/dates.ts";
import { OFFICE_TIME_ZONE } from "#shared/office.ts";
import { meetingInvite, type MeetingInvite } from "./ics.ts";

const base: MeetingInvite = {
  uid: "meeting-7@bridgewise.eu",
  sequence: 0,
  status: "TENTATIVE",
  date: "2026-11-24",
  time: "11:00",
  durationMinutes: 30,
  summary: "Meeting with Bridgewise",
  description: "A 30-minute meeting. Reference: M-00007.",
  organizer: { name: "Bridgewise", email: "hello@bridgewise.eu" },
  attendee: { name: "Leila Ahmadi", email: "leila@example.com" },
  stamp: new Date("2026-11-23T09:10:00Z"),
};

/** Parses an invite with ical.js, its VTIMEZONE registered as a real calendar client would. */
function parse(ics: string) {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  for (const zone of calendar.getAllSubcomponents("vtimezone")) ICAL.TimezoneService.register(zone);
  const vevent = calendar.getFirstSubcomponent("vevent")!;
  return { calendar, vevent, event: new ICAL.Event(vevent) };
}

describe("meetingInvite", () => {
  test("is a METHOD:REQUEST invite for 30 minutes of Amsterdam time, in winter (CET, UTC+1)", () => {
    const { calendar, vevent, event } = parse(meetingInvite(base));
    expect(calendar.getFirstPropertyValue("method")).toBe("REQUEST");
    expect(vevent.getFirstProperty("dtstart")!.getParameter("tzid")).toBe("Europe/Amsterdam");
    expect(event.startDate.toJSDate().toISOString()).toBe("2026-11-24T10:00:00.000Z");
    expect(event.endDate.toJSDate().getTime() - event.startDate.toJSDate().getTime()).toBe(30 * 60_000);
    expect(event.uid).toBe("meeting-7@bridgewise.eu");
    expect(event.sequence).toBe(0);
    expect(vevent.getFirstPropertyValue("status")).toBe("TENTATIVE");
    expect(event.organizer).toBe("mailto:hello@bridgewise.eu");
    expect(event.attendees.map((a) => a.getFirstValue())).toEqual(["mailto:leila@example.com"]);
  });

  test("follows summer time (CEST, UTC+2) through the VTIMEZONE's rules", () => {
    const { event } = parse(meetingInvite({ ...base, date: "2027-07-01", time: "16:30" }));
    expect(event.startDate.toJSDate().toISOString()).toBe("2027-07-01T14:30:00.000Z");
    expect(event.endDate.toJSDate().toISOString()).toBe("2027-07-01T15:00:00.000Z");
  });

  test("an update keeps the UID and carries its sequence and status", () => {
    const { vevent, event } = parse(meetingInvite({ ...base, sequence: 3, status: "CONFIRMED" }));
    expect(event.uid).toBe(base.uid);
    expect(event.sequence).toBe(3);
    expect(vevent.getFirstPropertyValue("status")).toBe("CONFIRMED");
  });

  test("uses CRLF, folds every line at 75 octets without splitting a character, and escapes text", () => {
    const description =
      "Persian: جلسهٔ ۳۰ دقیقه‌ای با تیم ما دربارهٔ ویزای استارتاپ و راه‌اندازی کسب‌وکار; commas, semicolons\\ and\nline breaks";
    const ics = meetingInvite({ ...base, description });
    expect(ics.endsWith("\r\n")).toBe(true);
    expect(ics.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    for (const line of ics.split("\r\n")) expect(Buffer.byteLength(line, "utf8")).toBeLessThanOrEqual(75);
    expect(parse(ics).event.description).toBe(description);
  });

  test("a name with line breaks and quotes cannot add properties or attendees", () => {
    const attendee = {
      name: 'Eve"\r\nATTENDEE:mailto:victim@example.com\r\nURL:https://evil.example',
      email: "eve@example.com",
    };
    const { vevent, event } = parse(meetingInvite({ ...base, attendee }));
    expect(event.attendees).toHaveLength(1);
    expect(event.attendees[0].getFirstValue()).toBe("mailto:eve@example.com");
    expect(vevent.getFirstProperty("url")).toBeNull();
  });

  test("the written-out VTIMEZONE gives the same times as Intl for the office's zone, every week of 2026–2030", () => {
    const offsetMinutes = (instant: Date) => {
      const name = new Intl.DateTimeFormat("en", { timeZone: OFFICE_TIME_ZONE, timeZoneName: "longOffset" })
        .formatToParts(instant)
        .find((p) => p.type === "timeZoneName")!.value; // "GMT+01:00"
      const m = /GMT([+-])(\d\d):(\d\d)/.exec(name);
      return m ? (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
    };
    for (let date = "2026-01-05"; date < "2031-01-01"; date = addDays(date, 7)) {
      const { event } = parse(meetingInvite({ ...base, date, time: "10:00" }));
      const wall = Date.parse(`${date}T10:00:00Z`);
      // At 10:00 no clock change is near (they happen at night), so one offset lookup is exact.
      const expected = new Date(wall - offsetMinutes(new Date(wall)) * 60_000).toISOString();
      expect(event.startDate.toJSDate().toISOString(), date).toBe(expected);
    }
  });
});
