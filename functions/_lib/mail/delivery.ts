/**
 * Sending the outbox: `deliverDue` claims due messages and sends them side by side over the
 * instance's one pooled transport; `afterCommitDelivery` sends what a request has just committed.
 * Kept apart from the templates (outbox.ts) so the scheduled retry carries none of them.
 */
import type { Kysely } from "kysely";
import { claimDue, markFailed, markSent, retryDelayMinutes, MAX_ATTEMPTS } from "../../../db/outbox.repository.ts";
import type { Database, OutboxRow } from "../../../db/types.ts";
import { mailConfig } from "../../../src/config/server.ts";
import { site } from "../../../src/config/site.ts";
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
   * are sent again once their claim runs out (LOCK_MINUTES), by a later run. A scheduled run has
   * 30 s in all.
   */
  deadlineMs?: number;
}

/** Messages one claim takes on: enough to keep every SMTP connection busy twice over. */
const BATCH = 2 * SMTP_CONNECTIONS;

/**
 * Sends the messages that are due: claims a batch (atomically, so overlapping runs never send one
 * twice), sends its messages side by side over the transport's pooled connections, and records the
 * outcome in one statement for those sent and one per failure, which is retried later with backoff.
 * Bounded by time: no claim after `budgetMs`, no waiting after `deadlineMs`. Throws only when the
 * database fails.
 */
export async function deliverDue(
  db: Kysely<Database>,
  transport: MailTransport,
  { limit = Infinity, ids, budgetMs = 15_000, deadlineMs = budgetMs + 10_000 }: DeliveryOptions = {},
): Promise<{ sent: number; failed: number; unfinished: number }> {
  const result = { sent: 0, failed: 0, unfinished: 0 };
  const started = Date.now();
  const batchSize = ids ? DELIVERY_BATCH : BATCH;
  while (result.sent + result.failed < limit && Date.now() - started < budgetMs) {
    const batch = await claimDue(db, Math.min(batchSize, limit - result.sent - result.failed), ids);
    if (!batch.length) break;
    const outcomes: (string | null | undefined)[] = batch.map(() => undefined); // undefined: still sending
    const sends = batch.map((row, i) =>
      transport.send(toMessage(row), row.id).then(
        () => (outcomes[i] = null),
        (error: unknown) => (outcomes[i] = describe(error)),
      ),
    );
    let timer: ReturnType<typeof setTimeout> | undefined;
    const remaining = deadlineMs - (Date.now() - started);
    await Promise.race([Promise.all(sends), new Promise((resolve) => (timer = setTimeout(resolve, remaining)))]);
    clearTimeout(timer);
    const sent = batch.filter((_, i) => outcomes[i] === null).map((row) => row.id);
    await markSent(db, sent);
    result.sent += sent.length;
    for (const [i, row] of batch.entries()) {
      const failure = outcomes[i];
      if (failure === null) continue;
      if (failure === undefined) {
        result.unfinished++;
        continue;
      }
      await markFailed(db, row, failure);
      result.failed++;
      const next = row.attempts >= MAX_ATTEMPTS ? "giving up" : `retry in ${retryDelayMinutes(row.attempts)} min`;
      console.warn(`[mail] ${row.kind} #${row.id} not sent (attempt ${row.attempts}, ${next}): ${failure}`);
    }
    if (result.unfinished) {
      console.warn(`[mail] run out of time: ${result.unfinished} messages left to a later run`);
      break;
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
