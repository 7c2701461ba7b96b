import { type Kysely, sql } from "kysely";
import type { Database } from "./types.ts";

// Counters of the abuse limits. A sliding window, estimated from two fixed ones (as large CDNs
// count): the current window's hits plus the previous window's, weighted by how much of the
// previous window still lies within one window of now. Bumping and reading are one statement
// (INSERT … ON CONFLICT DO UPDATE … RETURNING), so parallel requests on any number of function
// instances each see their own exact count; nothing is read and then written.

/** One counter to bump: its key, its window, and by how much (0 reads without counting). */
export interface CounterHit {
  key: string;
  windowSeconds: number;
  by?: number;
}

/** A counter after the hit: the estimate over the last window, and when the current window ends. */
export interface CounterState {
  key: string;
  /** Hits in the current fixed window, this one included. */
  current: number;
  /** current + previous window's hits × the share of it still within one window of now. */
  estimate: number;
  /** Seconds until the current fixed window ends. */
  resetSeconds: number;
}

/** The fixed window of `nowMs`: its start, the previous one's, when its row expires, and how much of it has passed (0–1). */
export const windowOf = (nowMs: number, windowSeconds: number) => {
  const size = windowSeconds * 1000;
  const start = Math.floor(nowMs / size) * size;
  return { start, previous: start - size, expires: start + 2 * size, elapsed: (nowMs - start) / size };
};

/** A counter's state from its current and previous windows' hits (the sliding-window estimate above). */
export function counterState(
  key: string,
  current: number,
  previous: number,
  windowSeconds: number,
  nowMs: number,
): CounterState {
  const w = windowOf(nowMs, windowSeconds);
  return {
    key,
    current,
    estimate: current + previous * (1 - w.elapsed),
    resetSeconds: Math.max(1, Math.ceil((w.start + windowSeconds * 1000 - nowMs) / 1000)),
  };
}

/**
 * Bumps each counter by its `by` (default 1) in one statement and answers every counter's state.
 * Keys are locked in sorted order, so two statements never wait on each other in a circle.
 */
export async function hitCounters(
  db: Kysely<Database>,
  hits: CounterHit[],
  nowMs = Date.now(),
): Promise<Map<string, CounterState>> {
  const sorted = [...hits].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  if (sorted.length === 0) return new Map();
  const windows = sorted.map((h) => windowOf(nowMs, h.windowSeconds));
  const iso = (ms: number) => new Date(ms).toISOString();
  const { rows } = await sql<{ key: string; hits: number; previous: number }>`
    WITH input AS (
      SELECT * FROM unnest(
        ${sorted.map((h) => h.key)}::text[],
        ${windows.map((w) => iso(w.start))}::timestamptz[],
        ${windows.map((w) => iso(w.previous))}::timestamptz[],
        ${windows.map((w) => iso(w.expires))}::timestamptz[],
        ${sorted.map((h) => h.by ?? 1)}::int[]
      ) WITH ORDINALITY AS t(key, window_start, previous_start, expires_at, by, position)
    ), hit AS (
      INSERT INTO rate_counters (key, window_start, hits, expires_at)
      SELECT key, window_start, by, expires_at FROM input ORDER BY position
      ON CONFLICT (key, window_start) DO UPDATE SET hits = rate_counters.hits + excluded.hits
      RETURNING key, hits
    )
    SELECT hit.key, hit.hits, coalesce(previous.hits, 0) AS previous
    FROM hit
    JOIN input ON input.key = hit.key
    LEFT JOIN rate_counters previous ON previous.key = input.key AND previous.window_start = input.previous_start
  `.execute(db);
  const states = new Map<string, CounterState>();
  for (const row of rows) {
    const hit = sorted.find((h) => h.key === row.key)!;
    states.set(row.key, counterState(row.key, row.hits, row.previous, hit.windowSeconds, nowMs));
  }
  return states;
}

/** Reads one counter without bumping it or creating its row. */
export async function readCounter(
  db: Kysely<Database>,
  key: string,
  windowSeconds: number,
  nowMs = Date.now(),
): Promise<CounterState> {
  const w = windowOf(nowMs, windowSeconds);
  const rows = await db
    .selectFrom("rateCounters")
    .select(["windowStart", "hits"])
    .where("key", "=", key)
    .where("windowStart", "in", [new Date(w.start), new Date(w.previous)])
    .execute();
  const hitsAt = (ms: number) => rows.find((r) => r.windowStart.getTime() === ms)?.hits ?? 0;
  return counterState(key, hitsAt(w.start), hitsAt(w.previous), windowSeconds, nowMs);
}

/** Takes one hit back from each counter's current window (never below zero). */
export async function refundCounters(
  db: Kysely<Database>,
  hits: Omit<CounterHit, "by">[],
  nowMs = Date.now(),
): Promise<void> {
  for (const { key, windowSeconds } of hits) {
    await db
      .updateTable("rateCounters")
      .set((eb) => ({ hits: eb("hits", "-", 1) }))
      .where("key", "=", key)
      .where("windowStart", "=", new Date(windowOf(nowMs, windowSeconds).start))
      .where("hits", ">", 0)
      .execute();
  }
}

/** Forgets every window of these keys (a successful sign-in clears its address's tries). */
export async function clearCounters(db: Kysely<Database>, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.deleteFrom("rateCounters").where("key", "in", keys).execute();
}

/** Deletes the counters that no longer count (index on expires_at); returns how many. */
export async function pruneCounters(db: Kysely<Database>, nowMs = Date.now()): Promise<number> {
  const result = await db.deleteFrom("rateCounters").where("expiresAt", "<", new Date(nowMs)).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Pending meetings (not confirmed, on `fromDate` or later) of one email address, compared as the
 * limits compare addresses: lower case, `+tag` removed. Call it inside the booking's transaction
 * after `lockEmail`, so two bookings for one address cannot both see room for one more.
 */
export async function pendingMeetingsFor(db: Kysely<Database>, email: string, fromDate: string): Promise<number> {
  const { rows } = await sql<{ count: string }>`
    SELECT count(*) AS count FROM meetings
    WHERE NOT is_confirmed AND cancelled_at IS NULL AND date >= ${fromDate}
      AND lower(regexp_replace(email, '\\+[^@]*@', '@')) = ${normaliseEmail(email)}
  `.execute(db);
  return Number(rows[0]?.count ?? 0);
}

/** Holds a transaction-scoped lock on one normalised email address (safe behind PgBouncer). */
export async function lockEmail(db: Kysely<Database>, email: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`email:${normaliseEmail(email)}`}, 0))`.execute(db);
}

/** Domains whose mail ignores dots in the local part ("a.n.n@gmail.com" is "ann@gmail.com"). */
const DOTLESS_DOMAINS: Readonly<Record<string, string>> = { "gmail.com": "gmail.com", "googlemail.com": "gmail.com" };

/**
 * The mailbox an address delivers to, for limits on mail sent to one person: as normaliseEmail,
 * and for Gmail (gmail.com, googlemail.com) without the dots of the local part, whose spellings
 * all reach one inbox. Other providers' dots are kept: for them "a.b" and "ab" may be two people.
 */
export function normaliseMailbox(email: string): string {
  const address = normaliseEmail(email);
  const at = address.lastIndexOf("@");
  const domain = DOTLESS_DOMAINS[address.slice(at + 1)];
  return domain ? `${address.slice(0, at).replaceAll(".", "")}@${domain}` : address;
}

/** An email address as the limits count it: trimmed, lower case, without a `+tag`. */
export function normaliseEmail(email: string): string {
  return email
    .trim()
    .toLowerCase()
    .replace(/\+[^@]*@/, "@");
}
