/**
 * Notifications through the outbox: the builders write a record's emails into the outbox together
 * with the record (an enquiry: in the same statement, storeEnquiry; a meeting: in its transaction);
 * `deliverDue` (delivery.ts) sends what is due (right after the
 * request, from the scheduled retry function, and from the local runtime's timer), so a mail server
 * that is down delays an email but never loses it and never fails a visitor's request.
 */
import type { Kysely } from "kysely";
import { claimDueReminders, type MeetingRecord } from "#db/meetings.repository.ts";
import type { Subscriber } from "#db/newsletter.repository.ts";
import { enqueue, type OutboxMessage } from "#db/outbox.repository.ts";
import type { Database } from "#db/types.ts";
import { site } from "#config/site.ts";
import type { Enquiry } from "#shared/api/enquiries.ts";
import { officeNow, zonedInstant } from "#shared/dates.ts";
import { MEETING_MINUTES, OFFICE_TIME_ZONE } from "#shared/office.ts";
import { mailConfig, NEWSLETTER_CONFIRM_DAYS } from "#server/config.ts";
import { requireLanguage } from "#shared/languages.ts";
import { confirmUrl, unsubscribeUrl } from "../newsletter/links.ts";
import { manageUrl } from "../booking/manage-token.ts";
import { meetingInvite } from "./ics.ts";
import {
  companyEnquiryEmail,
  companyMeetingChangeEmail,
  companyMeetingEmail,
  consultantMeetingEmail,
  type EnquiryDetails,
  type StaffChange,
  inviteText,
  newsletterConfirmEmail,
  newsletterWelcomeEmail,
  visitorEnquiryEmail,
  visitorMeetingEmail,
} from "./templates.ts";

// Sending lives in delivery.ts (the scheduled retry needs it without the templates); re-exported here
// for the functions that write and send.
export { afterCommitDelivery, deliverDue, type DeliveryOptions } from "./delivery.ts";

/** Whether the visitor's acknowledgement goes out (false when an abuse limit says skip it: functions/_lib/forms/limits.ts). */
export interface AcknowledgeOption {
  acknowledge?: boolean;
}

/**
 * A new enquiry's emails: the company's notification and, unless skipped, the visitor's
 * acknowledgement (storeEnquiry in db/enquiries.repository.ts writes them with the enquiry).
 */
export function enquiryEmails(
  enquiry: Enquiry & Pick<EnquiryDetails, "source">,
  { acknowledge = true }: AcknowledgeOption = {},
): OutboxMessage[] {
  const enquiryId = enquiry.id;
  const emails: OutboxMessage[] = [
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
  return acknowledge ? emails : emails.slice(0, 1);
}

/**
 * Queues the company's notification and, unless skipped, the visitor's acknowledgement with a
 * tentative invite (SEQUENCE 0) and the link to move or cancel the meeting.
 */
export async function enqueueBookingEmails(
  db: Kysely<Database>,
  meeting: MeetingRecord,
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
      ...visitorMeetingEmail(meeting, "requested", await manageUrl(meeting)),
      ics: invite(meeting),
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
      ...visitorMeetingEmail(meeting, stage, await manageUrl(meeting)),
      ics: invite(meeting),
    },
  ]);
}

/**
 * Queues the visitor's cancellation (METHOD:CANCEL, same UID, next SEQUENCE) and, when the visitor
 * cancelled it themselves, the company's notice.
 */
export async function enqueueCancellationEmails(db: Kysely<Database>, meeting: MeetingRecord): Promise<string[]> {
  const byVisitor = meeting.cancelledBy === "visitor";
  return enqueue(db, [
    {
      kind: "meeting.cancelled",
      meetingId: meeting.id,
      to: meeting.email,
      replyTo: site.email,
      ...visitorMeetingEmail(meeting, byVisitor ? "cancelledByYou" : "cancelledByUs"),
      ics: invite(meeting),
    },
    ...(byVisitor
      ? [
          {
            kind: "meeting.company.cancelled",
            meetingId: meeting.id,
            to: mailConfig().notifyTo,
            replyTo: meeting.email,
            ...companyMeetingChangeEmail(meeting, "cancelled"),
          },
        ]
      : []),
  ]);
}

/** Queues the visitor's updated invite (same UID, next SEQUENCE, new time, a fresh manage link) and the company's notice. */
export async function enqueueMoveEmails(
  db: Kysely<Database>,
  meeting: MeetingRecord,
  from: { date: string; time: string },
): Promise<string[]> {
  return enqueue(db, [
    {
      kind: "meeting.moved",
      meetingId: meeting.id,
      to: meeting.email,
      replyTo: site.email,
      ...visitorMeetingEmail(meeting, "moved", await manageUrl(meeting)),
      ics: invite(meeting),
    },
    {
      kind: "meeting.company.moved",
      meetingId: meeting.id,
      to: mailConfig().notifyTo,
      replyTo: meeting.email,
      ...companyMeetingChangeEmail(meeting, { moved: from }),
    },
  ]);
}

/** Where a consultant's news goes: their account's email, or the company's address when it has none. */
async function consultantAddress(db: Kysely<Database>, consultantId: string): Promise<string> {
  const row = await db
    .selectFrom("consultants")
    .innerJoin("users", "users.id", "consultants.userId")
    .select("users.email")
    .where("consultants.id", "=", consultantId)
    .executeTakeFirst();
  return row?.email || mailConfig().notifyTo;
}

/**
 * Queues what staff changing a meeting for the visitor sends (functions/_lib/booking/staff-changes.ts):
 * the visitor's updated invite (same UID, next SEQUENCE) with a fresh manage link, and the news to
 * the consultants: after a hand-over both the one who had it and the one who has it now, after a
 * move the meeting's consultant.
 */
export async function enqueueStaffChangeEmails(
  db: Kysely<Database>,
  meeting: MeetingRecord,
  change: StaffChange,
): Promise<string[]> {
  const meetingId = meeting.id;
  const news = async (consultant: string, kind: StaffChange["kind"]) => ({
    kind: `meeting.consultant.${kind}`,
    meetingId,
    to: await consultantAddress(db, consultant),
    replyTo: meeting.email,
    ...consultantMeetingEmail(meeting, { ...change, kind } as StaffChange),
  });
  return enqueue(db, [
    {
      kind: change.kind === "moved" ? "meeting.movedByUs" : "meeting.reassigned",
      meetingId,
      to: meeting.email,
      replyTo: site.email,
      ...visitorMeetingEmail(meeting, change.kind === "moved" ? "movedByUs" : "reassigned", await manageUrl(meeting)),
      ics: invite(meeting),
    },
    ...(change.kind === "moved"
      ? [await news(meeting.consultant, "moved")]
      : [await news(change.from, "handedFrom"), await news(meeting.consultant, "handedTo")]),
  ]);
}

/** Queues the email that asks a new subscriber to confirm (double opt-in); it can already unsubscribe. */
export async function enqueueNewsletterConfirmation(
  db: Kysely<Database>,
  subscriber: Subscriber,
  at: Date,
): Promise<string[]> {
  const lang = requireLanguage(subscriber.language, `newsletter subscriber #${subscriber.id}`);
  const links = {
    confirmUrl: confirmUrl(lang, subscriber.id, at),
    unsubscribeUrl: unsubscribeUrl(lang, subscriber.id),
  };
  return enqueue(db, [
    {
      kind: "newsletter.confirm",
      to: subscriber.email,
      replyTo: site.email,
      ...newsletterConfirmEmail(lang, links, NEWSLETTER_CONFIRM_DAYS),
      listUnsubscribe: links.unsubscribeUrl,
    },
  ]);
}

/** Queues the first newsletter email of a confirmed subscriber, with its one-click unsubscribe. */
export async function enqueueNewsletterWelcome(db: Kysely<Database>, subscriber: Subscriber): Promise<string[]> {
  const lang = requireLanguage(subscriber.language, `newsletter subscriber #${subscriber.id}`);
  const links = { unsubscribeUrl: unsubscribeUrl(lang, subscriber.id) };
  return enqueue(db, [
    {
      kind: "newsletter.welcome",
      to: subscriber.email,
      replyTo: site.email,
      ...newsletterWelcomeEmail(lang, links),
      listUnsubscribe: links.unsubscribeUrl,
    },
  ]);
}

/** How long before a confirmed meeting its reminder goes out. */
export const REMINDER_HOURS = 24;

/**
 * Whether a meeting already starts within REMINDER_HOURS of `at`: an email about it sent now (its
 * confirmation, the news of a move) does the reminder's work, so no reminder follows a minute later.
 */
export function withinReminderWindow(meeting: { date: string; time: string }, at: Date): boolean {
  return (
    zonedInstant(meeting.date, meeting.time, OFFICE_TIME_ZONE).getTime() - at.getTime() <= REMINDER_HOURS * 3_600_000
  );
}

/**
 * Queues the reminders that are due at `at`: confirmed meetings starting within REMINDER_HOURS,
 * claimed and queued in one transaction, so runs that overlap queue each reminder once (the outbox
 * then sends it once). Answers how many were queued.
 */
export async function enqueueDueReminders(db: Kysely<Database>, at: Date): Promise<number> {
  const from = officeNow(at, OFFICE_TIME_ZONE);
  const until = officeNow(new Date(at.getTime() + REMINDER_HOURS * 3_600_000), OFFICE_TIME_ZONE);
  return db.transaction().execute(async (trx) => {
    const due = await claimDueReminders(trx, from, until);
    const messages = [];
    for (const meeting of due) {
      messages.push({
        kind: "meeting.reminder",
        meetingId: meeting.id,
        to: meeting.email,
        replyTo: site.email,
        ...visitorMeetingEmail(meeting, "reminder", await manageUrl(meeting)),
      });
    }
    await enqueue(trx, messages);
    return due.length;
  });
}

/** The meeting's invite: one UID per meeting; the SEQUENCE and STATUS of its current state. */
function invite(meeting: MeetingRecord): string {
  const { organizerName, ...text } = inviteText(meeting);
  return meetingInvite({
    uid: `meeting-${meeting.id}@${site.host}`,
    sequence: meeting.inviteSequence,
    status: meeting.cancelledAt ? "CANCELLED" : meeting.isConfirmed ? "CONFIRMED" : "TENTATIVE",
    date: meeting.date,
    time: meeting.time,
    durationMinutes: MEETING_MINUTES,
    ...text,
    product: site.name,
    organizer: { name: organizerName, email: site.email },
    attendee: { name: meeting.name, email: meeting.email },
    stamp: new Date(),
  });
}
