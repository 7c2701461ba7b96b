/**
 * Keyset paging for the admin lists: a page at a time in a fixed order (newest first by
 * (created_at, id) unless the admin sorts otherwise), the next page named by an opaque cursor that
 * holds the order's name and the last row's key. Pages stay fast however long the list grows, and
 * a row added meanwhile never shifts a page: no row is shown twice and none is skipped.
 */
import { type Kysely, type SelectQueryBuilder, sql } from "kysely";
import { prepare } from "./prepared.ts";
import { isCalendarDate } from "#shared/dates.ts";

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

export interface PageRequest {
  /** Rows per page, 1 to MAX_PAGE_SIZE. */
  limit?: number;
  /** The `next` of the previous page; absent for the first page. */
  cursor?: string | null;
}

export interface Page<T> {
  items: T[];
  /** The cursor of the next page; null on the last page. */
  next: string | null;
}

type KeyValue = string | number;

/**
 * What a key column holds, so a cursor's values are checked before they reach SQL (a cursor is the
 * client's text: a date that is none or a number past the column's range would be a database error).
 */
export type KeyKind = "instant" | "date" | "time" | "id";

const KEY_CHECKS: Record<KeyKind, (v: KeyValue) => boolean> = {
  // As toIso writes it, and a real instant (2026-02-30T… is not).
  instant: (v) =>
    typeof v === "string" &&
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(v) &&
    !Number.isNaN(Date.parse(v)) &&
    new Date(v).toISOString() === v,
  date: (v) => typeof v === "string" && isCalendarDate(v),
  time: (v) => typeof v === "string" && /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/.test(v),
  // A serial id (PostgreSQL integer).
  id: (v) => typeof v === "number" && Number.isSafeInteger(v) && v >= 0 && v <= 2_147_483_647,
};

/**
 * An order a list can be paged in: its SQL key columns (unique together: the last is the id) and
 * direction, and how to read a row's key. Both directions run on the same index.
 */
export interface KeysetOrder<Row> {
  name: string;
  columns: readonly string[];
  /** What each of `columns` holds (same length). */
  kinds: readonly KeyKind[];
  direction: "asc" | "desc";
  key: (row: Row) => KeyValue[];
}

/** A cursor that is not one of ours, or belongs to another order (another sort): a 400, not a 500. */
export class InvalidCursorError extends Error {
  constructor() {
    super("cursor is not valid: use the Link of a page");
    this.name = "InvalidCursorError";
  }
}

export function encodeCursor(order: string, key: readonly KeyValue[]): string {
  return Buffer.from(JSON.stringify([order, ...key])).toString("base64url");
}

/** The order name and key a cursor holds; null for anything that is not one of ours. */
export function decodeCursor(cursor: string): { order: string; key: KeyValue[] } | null {
  if (!/^[A-Za-z0-9_-]{1,300}$/.test(cursor)) return null;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, "base64url").toString());
  } catch {
    return null;
  }
  if (!Array.isArray(value) || value.length < 2 || value.length > 4 || typeof value[0] !== "string") return null;
  const key = value.slice(1);
  if (!key.every((v) => (typeof v === "string" && v.length <= 40) || Number.isSafeInteger(v))) return null;
  return { order: value[0], key };
}

/** The key a cursor holds, checked against `order`; throws InvalidCursorError for another order's cursor. */
export function cursorKey<Row>(order: KeysetOrder<Row>, cursor: string): KeyValue[] {
  const decoded = decodeCursor(cursor);
  if (
    !decoded ||
    decoded.order !== order.name ||
    decoded.key.length !== order.columns.length ||
    !decoded.key.every((value, i) => KEY_CHECKS[order.kinds[i]](value))
  ) {
    throw new InvalidCursorError();
  }
  return decoded.key;
}

/** The condition "after the row with this key in `order`". */
function afterKey<Row>(order: KeysetOrder<Row>, key: readonly unknown[]) {
  const columns = sql.join(order.columns.map((c) => sql.ref(c)));
  const values = sql.join(key);
  return order.direction === "desc"
    ? sql<boolean>`(${columns}) < (${values})`
    : sql<boolean>`(${columns}) > (${values})`;
}

/** The condition "after the cursor's row in `order`"; throws InvalidCursorError for another order's cursor. */
export const after = <Row>(order: KeysetOrder<Row>, cursor: string) => afterKey(order, cursorKey(order, cursor));

/**
 * A list's pages without a filter, as the admin opens it and pages on: for each of `orders`, the
 * first page and the page after a cursor, each a statement compiled once (db/prepared.ts). `base`
 * is the list's query before its order, cursor and limit. Resolves to the rows (limit + 1 of them
 * at most, for toPage); a cursor of another order is an InvalidCursorError.
 */
export function unfilteredPages<DB, Row>(
  orders: Record<string, KeysetOrder<Row>>,
  base: (db: Kysely<DB>) => SelectQueryBuilder<DB, keyof DB & string, Row>,
): (db: Kysely<DB>, order: KeysetOrder<Row>, page: Required<PageRequest>) => Promise<Row[]> {
  type Params = Record<string, unknown>;
  type Statement = (db: Kysely<DB>, params: Params) => Promise<Row[]>;
  const statements = new Map<string, { first: Statement; next: Statement }>();
  for (const order of Object.values(orders)) {
    const keys = order.columns.map((_, i) => `key${i}`);
    const first = prepare<DB, Params, Row>(["rows"], (db, p) =>
      base(db)
        .orderBy(orderBy(order))
        .limit(p.rows as number),
    );
    const next = prepare<DB, Params, Row>(["rows", ...keys], (db, p) =>
      base(db)
        .where(
          afterKey(
            order,
            keys.map((k) => p[k]),
          ),
        )
        .orderBy(orderBy(order))
        .limit(p.rows as number),
    );
    statements.set(order.name, { first, next });
  }
  return (db, order, { limit, cursor }) => {
    const { first, next } = statements.get(order.name)!;
    if (cursor === null) return first(db, { rows: limit + 1 });
    const params: Params = { rows: limit + 1 };
    cursorKey(order, cursor).forEach((value, i) => (params[`key${i}`] = value));
    return next(db, params);
  };
}

/** The ORDER BY of an order. */
export const orderBy = <Row>(order: KeysetOrder<Row>) =>
  sql.join(order.columns.map((c) => sql`${sql.ref(c)} ${sql.raw(order.direction)}`));

/** Cuts `rows` (fetched with limit + 1) into a page and its next cursor. */
export function toPage<Row, T>(rows: Row[], limit: number, order: KeysetOrder<Row>, map: (row: Row) => T): Page<T> {
  const more = rows.length > limit;
  const kept = more ? rows.slice(0, limit) : rows;
  return { items: kept.map(map), next: more ? encodeCursor(order.name, order.key(kept[kept.length - 1])) : null };
}
