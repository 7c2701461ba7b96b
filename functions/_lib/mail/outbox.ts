/**
 * Notifications through the outbox: the builders write a record's emails into the outbox inside
 * the record's own transaction; `deliverDue` (delivery.ts) sends what is due (right after the
 * request, from the scheduled retry function, and from the local runtime's timer), so a mail server
 * that is down delays an email but never loses it and never fails a visitor's request.
 */
import type { Kysely } from "kysely";
import type { MeetingRecord } from "../../../db/meetings.repository.ts";
import { enqueue } from "../../../db/outbox.repository.ts";
import type { Database } from "../../../db/types.ts";
import { site } from "../../../src/config/site.ts";
import type { Enquiry, Meeting } from "../../../src/shared/api.ts";
import { MEETING_MINUTES } from "../../../src/shared/office.ts";
import { mailConfig } from "../../../src/config/server.ts";
import { meetingInvite } from "./ics.ts";
import {
  companyEnquiryEmail,
  companyMeetingEmail,
  inviteText,
  visitorEnquiryEmail,
  visitorMeetingEmail,
} from "./templates.ts";

// Sending lives in delivery.ts (the scheduled retry needs it without the templates); re-exported here
// for the functions that write and send.
export { afterCommitDelivery, deliverDue, type DeliveryOptions } from "./delivery.ts";

/** Whether the visitor's acknowledgement goes out (false when an abuse limit says skip it: functions/_lib/limits.ts). */
export interface AcknowledgeOption {
  acknowledge?: boolean;
}

/** Queues the company's notification and, unless skipped, the visitor's acknowledgement of a new enquiry. */
export async function enqueueEnquiryEmails(
  db: Kysely<Database>,
  enquiry: Enquiry,
  { acknowledge = true }: AcknowledgeOption = {},
): Promise<string[]> {
  const enquiryId = enquiry.id;
  const emails: Parameters<typeof enqueue>[1] = [
    {
      kind: "enquiry.company",
      enquiryId,
      to: mailConfig().notifyTo,
      replyTo: enquiry.email,
      ...companyEnquiryEmail(enquiry),
    },
    {
      kind: "enquiry.visitor",
      enquiryId,
      to: enquiry.email,
      replyTo: site.email,
      ...visitorEnquiryEmail(enquiry),
    },
  ];
  return enqueue(db, acknowledge ? emails : emails.slice(0, 1));
}

/** Queues the company's notification and, unless skipped, the visitor's acknowledgement with a tentative invite (SEQUENCE 0). */
export async function enqueueBookingEmails(
  db: Kysely<Database>,
  meeting: Meeting,
  { acknowledge = true }: AcknowledgeOption = {},
): Promise<string[]> {
  const meetingId = meeting.id;
  const emails: Parameters<typeof enqueue>[1] = [
    {
      kind: "meeting.company",
      meetingId,
      to: mailConfig().notifyTo,
      replyTo: meeting.email,
      ...companyMeetingEmail(meeting),
    },
    {
      kind: "meeting.requested",
      meetingId,
      to: meeting.email,
      replyTo: site.email,
      ...visitorMeetingEmail(meeting, "requested"),
      ics: invite({ ...meeting, inviteSequence: 0 }),
    },
  ];
  return enqueue(db, acknowledge ? emails : emails.slice(0, 1));
}

/** Queues the visitor's news of a confirmation (or of the meeting being pending again) with the updated invite. */
export async function enqueueMeetingStatusEmail(db: Kysely<Database>, meeting: MeetingRecord): Promise<string[]> {
  const stage = meeting.isConfirmed ? "confirmed" : "pending";
  return enqueue(db, [
    {
      kind: `meeting.${stage}`,
      meetingId: meeting.id,
      to: meeting.email,
      replyTo: site.email,
      ...visitorMeetingEmail(meeting, stage),
      ics: invite(meeting),
    },
  ]);
}

/** The meeting's invite: one UID per meeting; the SEQUENCE and STATUS of its current state. */
function invite(meeting: MeetingRecord): string {
  return meetingInvite({
    uid: `meeting-${meeting.id}@${site.host}`,
    sequence: meeting.inviteSequence,
    status: meeting.isConfirmed ? "CONFIRMED" : "TENTATIVE",
    date: meeting.date,
    time: meeting.time,
    durationMinutes: MEETING_MINUTES,
    ...inviteText(meeting),
    organizer: { name: site.name, email: site.email },
    attendee: { name: meeting.name, email: meeting.email },
    stamp: new Date(),
  });
}
