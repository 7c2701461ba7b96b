/**
 * Calendar invites (iCalendar, RFC 5545) for booked meetings. One VEVENT per meeting with a stable
 * UID, so each later invite (same UID, higher SEQUENCE) updates the event in the visitor's calendar
 * instead of adding a second one. Times are office times, qualified by the office's VTIMEZONE.
 * A cancellation is the same event with METHOD:CANCEL, STATUS:CANCELLED and the next SEQUENCE
 * (RFC 5546 3.2.5), which removes it from the visitor's calendar.
 */
import { OFFICE_TIME_ZONE } from "#shared/office.ts";

export interface MeetingInvite {
  /** Stable per meeting, e.g. `meeting-42@bridgewise.eu`. */
  uid: string;
  /** 0 for the first invite, higher for every update. */
  sequence: number;
  status: "TENTATIVE" | "CONFIRMED" | "CANCELLED";
  /** Office-local start: yyyy-MM-dd and HH:mm. */
  date: string;
  time: string;
  durationMinutes: number;
  summary: string;
  description: string;
  /** Where it happens, as words (LOCATION): the office's address, a phone call, or the video link. */
  location?: string;
  /** The meeting's video link (URL); only an http(s) address is written. */
  url?: string;
  /** Who makes the invite (PRODID); the organizer's name when absent. */
  product?: string;
  /** The meeting's consultant (or the brand) by name, at the brand's address. */
  organizer: { name: string; email: string };
  attendee: { name: string; email: string };
  /** When this invite was made (DTSTAMP). */
  stamp: Date;
}

export const OFFICE_TZID = OFFICE_TIME_ZONE;

// The office zone's rules, written out (Intl cannot give a zone's rules): the Netherlands' since
// 1996 (EU summer time), CEST from the last Sunday of March 02:00, CET from the last Sunday of
// October 03:00. ics.test.ts checks them against Intl's offsets for OFFICE_TIME_ZONE.
export const AMSTERDAM_VTIMEZONE = [
  "BEGIN:VTIMEZONE",
  `TZID:${OFFICE_TZID}`,
  "BEGIN:DAYLIGHT",
  "TZOFFSETFROM:+0100",
  "TZOFFSETTO:+0200",
  "TZNAME:CEST",
  "DTSTART:19700329T020000",
  "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU",
  "END:DAYLIGHT",
  "BEGIN:STANDARD",
  "TZOFFSETFROM:+0200",
  "TZOFFSETTO:+0100",
  "TZNAME:CET",
  "DTSTART:19701025T030000",
  "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU",
  "END:STANDARD",
  "END:VTIMEZONE",
];

/** The iTIP method of an invite: CANCEL for a cancelled meeting, REQUEST otherwise. */
export const inviteMethod = (status: MeetingInvite["status"]) => (status === "CANCELLED" ? "CANCEL" : "REQUEST");

/** The invite as a calendar object (METHOD:REQUEST, or CANCEL when cancelled), CRLF line endings, lines folded at 75 octets. */
export function meetingInvite(invite: MeetingInvite): string {
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    `PRODID:-//${text(invite.product ?? invite.organizer.name)}//Meetings//EN`,
    "CALSCALE:GREGORIAN",
    `METHOD:${inviteMethod(invite.status)}`,
    ...AMSTERDAM_VTIMEZONE,
    "BEGIN:VEVENT",
    `UID:${text(invite.uid)}`,
    `SEQUENCE:${invite.sequence}`,
    `DTSTAMP:${utcDateTime(invite.stamp)}`,
    `DTSTART;TZID=${OFFICE_TZID}:${localDateTime(invite.date, invite.time)}`,
    `DTEND;TZID=${OFFICE_TZID}:${localDateTime(invite.date, invite.time, invite.durationMinutes)}`,
    `SUMMARY:${text(invite.summary)}`,
    `DESCRIPTION:${text(invite.description)}`,
    ...(invite.location ? [`LOCATION:${text(invite.location)}`] : []),
    ...(invite.url && /^https?:\/\/[^\s"<>\\]+$/.test(invite.url) ? [`URL:${invite.url}`] : []),
    `STATUS:${invite.status}`,
    "TRANSP:OPAQUE",
    `ORGANIZER;CN=${param(invite.organizer.name)}:mailto:${invite.organizer.email}`,
    `ATTENDEE;CN=${param(invite.attendee.name)};ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=FALSE:mailto:${invite.attendee.email}`,
    "END:VEVENT",
    "END:VCALENDAR",
  ];
  return lines.map(fold).join("\r\n") + "\r\n";
}

/** yyyy-MM-dd + HH:mm (+ minutes) → 20261124T110000: wall-clock time, qualified by its TZID. */
export function localDateTime(date: string, time: string, plusMinutes = 0): string {
  const [y, mo, d] = date.split("-").map(Number);
  const [h, mi] = time.split(":").map(Number);
  // UTC arithmetic on wall-clock fields: no time zone is involved, only the calendar.
  const wall = new Date(Date.UTC(y, mo - 1, d, h, mi + plusMinutes));
  return wall.toISOString().slice(0, 19).replace(/[-:]/g, "");
}

export function utcDateTime(instant: Date): string {
  return instant
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
}

/** A TEXT value (RFC 5545 3.3.11): backslash, semicolon and comma escaped, line breaks as \n. */
export function text(value: string): string {
  return value
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, "")
    .replace(/\\/g, "\\\\")
    .replace(/;/g, "\\;")
    .replace(/,/g, "\\,")
    .replace(/\r\n|\r|\n/g, "\\n");
}

/**
 * A parameter value (RFC 5545 3.2), always quoted. A quoted value cannot hold a double quote or a
 * control character (a line break could start a new property), so those are dropped, not escaped.
 */
export function param(value: string): string {
  return `"${value
    .replace(/[\u0000-\u001F\u007F"]/g, " ")
    .replace(/\s+/g, " ")
    .trim()}"`;
}

/** Folds a content line into chunks of at most 75 octets, never splitting a UTF-8 character. */
export function fold(line: string): string {
  const chunks: string[] = [];
  let chunk = "";
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char, "utf8");
    // Continuation lines start with a space, which counts toward their 75.
    if (octets + size > 75) {
      chunks.push(chunk);
      chunk = " ";
      octets = 1;
    }
    chunk += char;
    octets += size;
  }
  chunks.push(chunk);
  return chunks.join("\r\n");
}
