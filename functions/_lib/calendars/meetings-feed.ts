/**
 * Meetings out: the iCalendar feed the team subscribes to in their own calendar app, at a private
 * address (/api/meetings-feed/<token>). One VEVENT per meeting with the UID of the visitor's
 * invite (`meeting-<id>@host`), so a move changes the event in place (same UID, the invite's next
 * SEQUENCE) and a cancellation shows as STATUS:CANCELLED instead of vanishing unnoticed.
 *
 * It carries no link that can change a meeting: whoever holds the address (a calendar app's
 * servers, a colleague's phone) reads the meetings, and only a signed-in admin moves or cancels
 * them. Each event links to the meeting in the admin's list.
 */
import { site } from "#config/site.ts";
import type { MeetingRecord } from "#db/meetings.repository.ts";
import { MEETING_MINUTES } from "#shared/office.ts";
import { AMSTERDAM_VTIMEZONE, fold, localDateTime, OFFICE_TZID, text, utcDateTime } from "../mail/ics.ts";
import { meetingReference } from "#shared/leads.ts";
import { fill, ROUTES } from "#shared/routes.ts";

/** How far back the feed reaches: calendar apps drop events that leave a feed, so recent ones stay. */
export const MEETINGS_FEED_PAST_DAYS = 90;

/** The feed's public address for a token. */
export const meetingsFeedUrl = (token: string) => `${site.url}${fill(ROUTES.meetings.feed, { token })}`;

const languageNames = new Intl.DisplayNames("en", { type: "language" });

/** The meeting in the admin's list of meetings (signing in first): found by its day and the visitor's address. */
export const adminMeetingUrl = (meeting: Pick<MeetingRecord, "email" | "date">) =>
  `${site.url}/admin/submissions?${new URLSearchParams({ tab: "meetings", q: meeting.email, from: meeting.date, to: meeting.date })}`;

/** The feed: every meeting given, with the visitor's name, contact, language and the admin's link to it. */
export function meetingsCalendar(meetings: readonly MeetingRecord[], now: Date): string {
  const stamp = utcDateTime(now);
  const events: string[] = [];
  for (const meeting of meetings) {
    const ref = meetingReference(meeting.id);
    const standing = meeting.cancelledAt === null;
    const link = adminMeetingUrl(meeting);
    const language = `${languageNames.of(meeting.language) ?? meeting.language} (${meeting.language})`;
    const description = [
      `${ref}: a ${MEETING_MINUTES}-minute consultation booked on the website.`,
      `Name: ${meeting.name}`,
      `Email: ${meeting.email}`,
      `Phone: ${meeting.phone}`,
      `Language: ${language}`,
      `In the admin: ${link}`,
      meeting.cancelledAt ? `Cancelled by the ${meeting.cancelledBy ?? "office"}.` : null,
    ].filter((line): line is string => line !== null);
    events.push(
      "BEGIN:VEVENT",
      `UID:${text(`meeting-${meeting.id}@${site.host}`)}`,
      `SEQUENCE:${meeting.inviteSequence}`,
      `DTSTAMP:${stamp}`,
      `DTSTART;TZID=${OFFICE_TZID}:${localDateTime(meeting.date, meeting.time)}`,
      `DTEND;TZID=${OFFICE_TZID}:${localDateTime(meeting.date, meeting.time, MEETING_MINUTES)}`,
      `SUMMARY:${text(`${meeting.name}: consultation (${meeting.language.toUpperCase()})`)}`,
      `DESCRIPTION:${text(description.join("\n"))}`,
      `STATUS:${standing ? (meeting.isConfirmed ? "CONFIRMED" : "TENTATIVE") : "CANCELLED"}`,
      `TRANSP:${standing ? "OPAQUE" : "TRANSPARENT"}`,
      `URL:${link}`,
      `CONTACT:${text(`${meeting.name}, ${meeting.email}, ${meeting.phone}`)}`,
      "END:VEVENT",
    );
  }
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    `PRODID:-//${text(site.name)}//Meetings feed//EN`,
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    `X-WR-CALNAME:${text(`${site.name} meetings`)}`,
    `X-WR-TIMEZONE:${OFFICE_TZID}`,
    "REFRESH-INTERVAL;VALUE=DURATION:PT15M",
    "X-PUBLISHED-TTL:PT15M",
    ...AMSTERDAM_VTIMEZONE,
    ...events,
    "END:VCALENDAR",
  ];
  return lines.map(fold).join("\r\n") + "\r\n";
}
