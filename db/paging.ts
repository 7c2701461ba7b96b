/**
 * Keyset paging for the admin lists: newest first by (created_at, id), a page at a time, the next
 * page named by an opaque cursor (the last row's created_at and id). Pages stay fast however long
 * the list grows, and a row added meanwhile never shifts a page.
 */
import { sql } from "kysely";

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

export interface Position {
  createdAt: Date;
  id: number;
}

export function encodeCursor({ createdAt, id }: Position): string {
  return Buffer.from(`${createdAt.toISOString()}|${id}`).toString("base64url");
}

/** The position a cursor names; null for anything that is not one of ours. */
export function decodeCursor(cursor: string): Position | null {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(cursor)) return null;
  const match = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)\|(\d{1,9})$/.exec(
    Buffer.from(cursor, "base64url").toString(),
  );
  if (!match) return null;
  const createdAt = new Date(match[1]);
  return Number.isNaN(createdAt.getTime()) ? null : { createdAt, id: Number(match[2]) };
}

/** The condition "after `position` in newest-first order", for a table with created_at and id. */
export function after(position: Position) {
  return sql<boolean>`(created_at, id) < (${position.createdAt}, ${position.id})`;
}

/** Cuts `rows` (fetched with limit + 1) into a page and its next cursor. */
export function toPage<Row extends Position, T>(rows: Row[], limit: number, map: (row: Row) => T): Page<T> {
  const more = rows.length > limit;
  const kept = more ? rows.slice(0, limit) : rows;
  return { items: kept.map(map), next: more ? encodeCursor(kept[kept.length - 1]) : null };
}
