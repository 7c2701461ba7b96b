import { type Kysely, sql } from "kysely";
import { type CounterHit, type CounterState, counterState, windowOf } from "./rate-limits.repository.ts";
import type { Database } from "./types.ts";

// A public submission's way in, in ONE statement (one round trip, which on Netlify is one network
// hop to the database): its form token is used up, its abuse counters are bumped, and the id of the
// record it will create is reserved, so that the record and its emails can then be stored together
// in one more statement (see storeEnquiry). Each step happens only when the one before lets it:
// a token used before counts nothing, and a submission its gate counter refuses counts nothing else.

/** A key that can be used once (a form token's nonce): its row lives from `at` until `expiresAt`. */
export interface OnceKey {
  key: string;
  at: Date;
  expiresAt: Date;
}

/** The counter that can refuse a submission (its address's): refused above `refuseAbove`. */
export interface GateHit extends CounterHit {
  refuseAbove: number;
  /** Above this the submission is still admitted, but the hits marked `onlyUnderSoft` count 0. */
  softAbove?: number;
}

/** A counter bumped only when the gate admits the submission. */
export interface FollowingHit extends CounterHit {
  /** Counts 0 (read only) when the gate is over its soft limit. */
  onlyUnderSoft?: boolean;
}

export interface AdmissionRequest {
  /** The form token's nonce; when it was used before, nothing else is done. */
  once?: OnceKey;
  gate?: GateHit;
  following?: FollowingHit[];
  /** The table whose next id is reserved for the admitted submission's record. */
  reserveIdOf?: "enquiries";
}

export type Admission =
  | { tokenUsed: true }
  | {
      tokenUsed: false;
      /** The gate's state when it refused the submission (nothing else was counted), else null. */
      refusedBy: CounterState | null;
      /** Whether the gate was within its soft limit. */
      underSoft: boolean;
      /** Every counter bumped (or read), by key. */
      states: Map<string, CounterState>;
      /** The reserved id (null when refused or none was asked for). */
      id: number | null;
      /** The database's time of the statement (the record's creation time). */
      at: Date;
    };

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Admits one submission in one statement (see above). The gate's key is locked before the
 * following ones, which are locked in sorted order, so two statements never wait in a circle.
 */
export async function admit(
  db: Kysely<Database>,
  { once, gate, following = [], reserveIdOf }: AdmissionRequest,
  nowMs = Date.now(),
): Promise<Admission> {
  const sorted = [...following].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const hits = [
    ...(gate ? [{ ...gate, isGate: true, onlyUnderSoft: false }] : []),
    ...sorted.map((h) => ({ ...h, isGate: false })),
  ];
  const windows = hits.map((h) => windowOf(nowMs, h.windowSeconds));
  const { rows } = await sql<{
    fresh: boolean;
    admitted: boolean;
    underSoft: boolean;
    id: string | null;
    at: Date;
    counted: { key: string; hits: number; previous: number }[];
  }>`
    WITH once AS (
      INSERT INTO rate_counters (key, window_start, hits, expires_at)
      SELECT key, window_start, 1, expires_at
      FROM unnest(
        ${once ? [once.key] : []}::text[],
        ${once ? [once.at.toISOString()] : []}::timestamptz[],
        ${once ? [once.expiresAt.toISOString()] : []}::timestamptz[]
      ) AS t(key, window_start, expires_at)
      ON CONFLICT (key, window_start) DO NOTHING
      RETURNING key
    ), fresh AS (
      SELECT ${!once}::boolean OR EXISTS (SELECT FROM once) AS fresh
    ), input AS (
      SELECT * FROM unnest(
        ${hits.map((h) => h.key)}::text[],
        ${windows.map((w) => iso(w.start))}::timestamptz[],
        ${windows.map((w) => iso(w.previous))}::timestamptz[],
        ${windows.map((w) => iso(w.expires))}::timestamptz[],
        ${hits.map((h) => h.by ?? 1)}::int[],
        ${windows.map((w) => 1 - w.elapsed)}::float8[],
        ${hits.map((h) => h.isGate)}::boolean[],
        ${hits.map((h) => h.onlyUnderSoft ?? false)}::boolean[]
      ) WITH ORDINALITY AS t(key, window_start, previous_start, expires_at, by, weight, is_gate, only_under_soft, position)
    ), gate AS (
      INSERT INTO rate_counters (key, window_start, hits, expires_at)
      SELECT key, window_start, by, expires_at FROM input, fresh WHERE is_gate AND fresh.fresh
      ON CONFLICT (key, window_start) DO UPDATE SET hits = rate_counters.hits + excluded.hits
      RETURNING key, hits
    ), gate_state AS (
      SELECT gate.key, gate.hits, coalesce(previous.hits, 0) AS previous,
        gate.hits + coalesce(previous.hits, 0) * input.weight AS estimate
      FROM gate
      JOIN input ON input.key = gate.key
      LEFT JOIN rate_counters previous ON previous.key = input.key AND previous.window_start = input.previous_start
    ), verdict AS (
      SELECT fresh.fresh AND NOT EXISTS (SELECT FROM gate_state WHERE estimate > ${gate?.refuseAbove ?? 0}::float8) AS admitted,
        NOT EXISTS (SELECT FROM gate_state WHERE estimate > ${gate?.softAbove ?? gate?.refuseAbove ?? 0}::float8) AS under_soft
      FROM fresh
    ), rest AS (
      INSERT INTO rate_counters (key, window_start, hits, expires_at)
      SELECT key, window_start, CASE WHEN only_under_soft AND NOT verdict.under_soft THEN 0 ELSE by END, expires_at
      FROM input, verdict WHERE NOT is_gate AND verdict.admitted ORDER BY position
      ON CONFLICT (key, window_start) DO UPDATE SET hits = rate_counters.hits + excluded.hits
      RETURNING key, hits
    ), counted AS (
      SELECT key, hits, previous FROM gate_state
      UNION ALL
      SELECT rest.key, rest.hits, coalesce(previous.hits, 0)
      FROM rest
      JOIN input ON input.key = rest.key
      LEFT JOIN rate_counters previous ON previous.key = input.key AND previous.window_start = input.previous_start
    )
    SELECT fresh.fresh, verdict.admitted, verdict.under_soft,
      CASE WHEN verdict.admitted AND ${reserveIdOf ?? null}::text IS NOT NULL
        THEN nextval(pg_get_serial_sequence(${reserveIdOf ?? null}::text, 'id')) END AS id,
      now() AS at,
      (SELECT coalesce(json_agg(json_build_object('key', key, 'hits', hits, 'previous', previous)), '[]') FROM counted) AS counted
    FROM fresh, verdict
  `.execute(db);
  const row = rows[0];
  if (!row.fresh) return { tokenUsed: true };
  const states = new Map<string, CounterState>();
  for (const c of row.counted) {
    const hit = hits.find((h) => h.key === c.key)!;
    states.set(c.key, counterState(c.key, c.hits, c.previous, hit.windowSeconds, nowMs));
  }
  return {
    tokenUsed: false,
    refusedBy: row.admitted ? null : states.get(gate!.key)!,
    underSoft: row.underSoft,
    states,
    id: row.id === null ? null : Number(row.id),
    at: row.at,
  };
}
