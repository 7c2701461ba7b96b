/**
 * Notifications through the outbox: the builders write a record's emails into the outbox inside
 * the record's own transaction; `deliverDue` sends what is due (right after the request, from the
 * scheduled retry function, and from the local runtime's timer), so a mail server that is down
 * delays an email but never loses it and never fails a visitor's request.
 */
import type { Kysely } from "kysely";
import type { MeetingRecord } from "../../../db/meetings.repository.ts";
import {
  claimDue,
  enqueue,
  markFailed,
  markSent,
  retryDelayMinutes,
  MAX_ATTEMPTS,
} from "../../../db/outbox.repository.ts";
import type { Database, OutboxRow } from "../../../db/types.ts";
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
import { mailTransport, type MailTransport } from "./transport.ts";

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

export interface DeliveryOptions {
  /** At most this many messages in this run. */
  limit?: number;
  /** Only these outbox rows (the ones a request just wrote). */
  ids?: readonly string[];
  /** Claim no new messages after this many milliseconds (a scheduled run has 30 s in all). */
  budgetMs?: number;
}

/** Messages one claim takes on: a scheduled run's few at a time, a request's all at once (up to DELIVERY_BATCH). */
const BATCH = 5;

/**
 * Sends the messages that are due: claims a batch (atomically, so overlapping runs never send one
 * twice), sends its messages side by side, and records the outcome in one statement for those sent
 * and one per failure, which is retried later with backoff. Throws only when the database fails.
 */
export async function deliverDue(
  db: Kysely<Database>,
  transport: MailTransport,
  { limit = 100, ids, budgetMs = 20_000 }: DeliveryOptions = {},
): Promise<{ sent: number; failed: number }> {
  const result = { sent: 0, failed: 0 };
  const stopAt = Date.now() + budgetMs;
  const batchSize = ids ? DELIVERY_BATCH : BATCH;
  while (result.sent + result.failed < limit && Date.now() < stopAt) {
    const batch = await claimDue(db, Math.min(batchSize, limit - result.sent - result.failed), ids);
    if (!batch.length) break;
    const failures = await Promise.all(
      batch.map((row) =>
        transport.send(toMessage(row), row.id).then(
          () => null,
          (error: unknown) => describe(error),
        ),
      ),
    );
    const sent = batch.filter((_, i) => failures[i] === null).map((row) => row.id);
    await markSent(db, sent);
    result.sent += sent.length;
    for (const [i, row] of batch.entries()) {
      const failure = failures[i];
      if (failure === null) continue;
      await markFailed(db, row, failure);
      result.failed++;
      const next = row.attempts >= MAX_ATTEMPTS ? "giving up" : `retry in ${retryDelayMinutes(row.attempts)} min`;
      console.warn(`[mail] ${row.kind} #${row.id} not sent (attempt ${row.attempts}, ${next}): ${failure}`);
    }
  }
  return result;
}

const IMMEDIATE_DELIVERY_MS = 3_000;
/** Immediate deliveries one process runs at once, and the messages one of them takes on. */
const DELIVERY_WORKERS = 4;
const DELIVERY_BATCH = 50;

// The messages requests have just committed, waiting for a delivery worker. A burst of requests
// becomes a few batched runs instead of one run (and its queries) per request, so the database
// pool stays free for storing leads. On Netlify each instance serves one request at a time, so
// this is simply "send this request's messages".
const queue: { ids: readonly string[]; done: () => void }[] = [];
let workers = 0;

function startWorkers(db: Kysely<Database>): void {
  while (workers < DELIVERY_WORKERS && queue.length) {
    workers++;
    void (async () => {
      try {
        while (queue.length) {
          const batch = [queue.shift()!];
          let count = batch[0].ids.length;
          while (queue.length && count + queue[0].ids.length <= DELIVERY_BATCH) {
            count += queue[0].ids.length;
            batch.push(queue.shift()!);
          }
          const ids = batch.flatMap((entry) => entry.ids);
          await deliverDue(db, mailTransport(), { ids, limit: ids.length }).catch((error: unknown) =>
            console.error(`[mail] immediate delivery stopped (the retry run will send): ${describe(error)}`),
          );
          for (const entry of batch) entry.done();
        }
      } finally {
        workers--;
      }
    })();
  }
}

/**
 * Tries to send the messages a request has just committed, right away. Never throws and never
 * holds the answer up for more than about 3 s: what is not sent by then goes on in the background
 * (kept alive by `waitUntil` on Netlify), and anything that fails is the retry run's.
 */
export async function afterCommitDelivery(
  db: Kysely<Database>,
  ids: readonly string[],
  context?: { waitUntil?: (promise: Promise<unknown>) => void },
): Promise<void> {
  if (!ids.length) return;
  const work = new Promise<void>((done) => queue.push({ ids, done }));
  startWorkers(db);
  context?.waitUntil?.(work);
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([work, new Promise((resolve) => (timer = setTimeout(resolve, IMMEDIATE_DELIVERY_MS)))]);
  clearTimeout(timer);
}

// Addresses were validated when stored; checked again because they become headers here.
const ADDRESS = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+$/;

function addresses(value: string): string[] {
  const list = value
    .split(",")
    .map((a) => a.trim())
    .filter(Boolean);
  if (!list.length || !list.every((a) => ADDRESS.test(a)))
    throw new Error(`Refusing to send: "${value.slice(0, 100)}" is not a plain address list`);
  return list;
}

function toMessage(row: OutboxRow) {
  return {
    from: mailConfig().from,
    to: addresses(row.toAddress),
    replyTo: row.replyTo ? addresses(row.replyTo) : undefined,
    subject: row.subject,
    text: row.textBody,
    html: row.htmlBody,
    // One Message-ID per outbox row: should a message ever go out twice, mail systems see one message.
    messageId: `<outbox-${row.id}@${site.host}>`,
    // RFC 3834: no vacation replies to these.
    headers: { "Auto-Submitted": "auto-generated" },
    icalEvent: row.ics ? { method: "REQUEST", filename: "invite.ics", content: row.ics } : undefined,
    // Message content never names files or URLs for nodemailer to fetch; make sure it cannot.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { code, response } = error as Error & { code?: string; response?: string };
  return [code, response ?? error.message].filter(Boolean).join(": ");
}
