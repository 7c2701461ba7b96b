/**
 * Sending the outbox: `deliverDue` claims due messages and sends them side by side over the
 * instance's one pooled transport; `afterCommitDelivery` sends what a request has just committed.
 * Kept apart from the templates (outbox.ts) so the scheduled retry carries none of them.
 */
import type { Kysely } from "kysely";
import { claimDue, markFailed, markSent, retryDelayMinutes, MAX_ATTEMPTS } from "#db/outbox.repository.ts";
import type { Database, OutboxRow } from "#db/types.ts";
import { mailConfig } from "#server/config.ts";
import { site } from "#config/site.ts";
import { inviteMethod } from "./ics.ts";
import { mailTransport, SMTP_CONNECTIONS, type MailTransport } from "./transport.ts";

export interface DeliveryOptions {
  /** At most this many messages in this run. */
  limit?: number;
  /** Only these outbox rows (the ones a request just wrote). */
  ids?: readonly string[];
  /** Claim no new messages after this many milliseconds. */
  budgetMs?: number;
  /**
   * Return by this many milliseconds whatever is still being sent: those messages stay claimed and
   * are recorded when their sends end; a message whose outcome is never recorded (the process
   * stopped) is sent again once its claim runs out (LOCK_MINUTES), by a later run. A scheduled run
   * has 30 s in all.
   */
  deadlineMs?: number;
}

/** Messages in flight at once: enough to keep every SMTP connection busy twice over. */
const WINDOW = 2 * SMTP_CONNECTIONS;

/**
 * Sends the messages that are due, as a pipeline: claims due rows (atomically, so overlapping runs
 * never send one twice) whenever fewer than half a window are in flight, sends them side by side
 * over the transport's pooled connections, and records outcomes in groups (one statement for those
 * sent, one per failure, which is retried later with backoff). Bounded by time: no claim after
 * `budgetMs`, no waiting after `deadlineMs` (what is still in flight stays claimed and is recorded
 * when its send ends; only a send whose outcome is never recorded, its process gone, is tried again
 * by a later run once the claim runs out). Throws only when the database fails.
 */
export async function deliverDue(
  db: Kysely<Database>,
  transport: MailTransport,
  { limit = Infinity, ids, budgetMs = 15_000, deadlineMs = budgetMs + 10_000 }: DeliveryOptions = {},
): Promise<{ sent: number; failed: number; unfinished: number }> {
  const result = { sent: 0, failed: 0, unfinished: 0 };
  const started = Date.now();
  const window = ids ? DELIVERY_BATCH : WINDOW;
  const inFlight = new Set<Promise<void>>();
  const finished: { row: OutboxRow; error: string | null }[] = [];
  let claimed = 0;
  let exhausted = false;

  const record = async () => {
    const outcomes = finished.splice(0);
    const sent = outcomes.filter((o) => o.error === null).map((o) => o.row.id);
    await markSent(db, sent);
    result.sent += sent.length;
    for (const { row, error } of outcomes) {
      if (error === null) continue;
      await markFailed(db, row, error);
      result.failed++;
      const next = row.attempts >= MAX_ATTEMPTS ? "giving up" : `retry in ${retryDelayMinutes(row.attempts)} min`;
      console.warn(`[mail] ${row.kind} #${row.id} not sent (attempt ${row.attempts}, ${next}): ${error}`);
    }
  };

  for (;;) {
    const mayClaim = !exhausted && claimed < limit && Date.now() - started < budgetMs;
    if (mayClaim && inFlight.size <= window / 2) {
      const batch = await claimDue(db, Math.min(window - inFlight.size, limit - claimed), ids);
      if (!batch.length) exhausted = true;
      claimed += batch.length;
      for (const row of batch) {
        const sending: Promise<void> = Promise.resolve()
          .then(() => transport.send(toMessage(row), row.id))
          .then(
            () => null,
            (error: unknown) => describe(error),
          )
          .then((error) => {
            finished.push({ row, error });
            inFlight.delete(sending);
          });
        inFlight.add(sending);
      }
      if (batch.length) continue;
    }
    if (!inFlight.size) break;
    const remaining = deadlineMs - (Date.now() - started);
    if (remaining <= 0) break;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // While claiming, go on as soon as one is done; after the last claim, wait for them all (one record).
    const progress = mayClaim ? Promise.race(inFlight) : Promise.all(inFlight);
    await Promise.race([progress, new Promise((resolve) => (timer = setTimeout(resolve, remaining)))]);
    clearTimeout(timer);
    if (finished.length >= window / 2 || !mayClaim) await record();
  }
  await record();
  result.unfinished = inFlight.size;
  if (result.unfinished) {
    console.warn(`[mail] out of time: ${result.unfinished} messages still being sent, recorded when they end`);
    // They go on, still claimed: each is recorded when its send ends (while this process lives), so
    // a message the server accepts late is not sent again once its claim runs out.
    void Promise.all(inFlight)
      .then(record)
      .catch((error: unknown) => console.error(`[mail] recording late sends failed: ${describe(error)}`));
  }
  return result;
}

const IMMEDIATE_DELIVERY_MS = 3_000;
/** Immediate deliveries one process runs at once, and the messages one of them takes on. */
export const DELIVERY_WORKERS = 4;
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
 * Sends the messages a request has just committed, right away. Never throws. Where the platform
 * keeps work alive after the answer (`context.waitUntil`: Netlify, `npm start`), the answer does not
 * wait for the mail server at all; elsewhere it waits at most about 3 s. Anything that fails is the
 * retry run's.
 */
export async function afterCommitDelivery(
  db: Kysely<Database>,
  ids: readonly string[],
  context?: { waitUntil?: (promise: Promise<unknown>) => void },
): Promise<void> {
  if (!ids.length) return;
  const work = new Promise<void>((done) => queue.push({ ids, done }));
  startWorkers(db);
  if (context?.waitUntil) {
    context.waitUntil(work);
    return;
  }
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

/** The outbox kind of a reply written by a person in the panel (functions/admin-replies.ts). */
export const LEAD_REPLY_KIND = "lead.reply";

/** The Message-ID an outbox row is sent with: one per row, known before it is sent. */
export const outboxMessageId = (id: string | number) => `<outbox-${id}@${site.host}>`;

function toMessage(row: OutboxRow) {
  return {
    from: mailConfig().from,
    to: addresses(row.toAddress),
    replyTo: row.replyTo ? addresses(row.replyTo) : undefined,
    subject: row.subject,
    text: row.textBody,
    html: row.htmlBody,
    // One Message-ID per outbox row: should a message ever go out twice, mail systems see one message.
    messageId: outboxMessageId(row.id),
    // A reply to a lead threads under the message it answers (RFC 5322 3.6.4).
    ...(row.inReplyTo && { inReplyTo: row.inReplyTo, references: [row.inReplyTo] }),
    headers: {
      // RFC 3834: no vacation replies to these; a person's reply to a lead is not automatic.
      ...(row.kind !== LEAD_REPLY_KIND && { "Auto-Submitted": "auto-generated" }),
      // A newsletter email unsubscribes in one click (RFC 2369 and RFC 8058): a POST to this URL.
      ...(row.listUnsubscribe && {
        "List-Unsubscribe": `<${row.listUnsubscribe}>`,
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      }),
    },
    icalEvent: row.ics ? { method: icsMethod(row.ics), filename: "invite.ics", content: row.ics } : undefined,
    // Message content never names files or URLs for nodemailer to fetch; make sure it cannot.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

/** The METHOD the invite itself states (REQUEST or CANCEL), for the MIME part's `method=`. */
function icsMethod(ics: string): string {
  const method = /^METHOD:([A-Z]+)\r?$/m.exec(ics)?.[1];
  return method === inviteMethod("CANCELLED") ? method : "REQUEST";
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { code, response } = error as Error & { code?: string; response?: string };
  return [code, response ?? error.message].filter(Boolean).join(": ");
}
