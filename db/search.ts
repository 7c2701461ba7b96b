/**
 * Search in the admin lists. The database folds both sides with one function, search_fold (defined
 * by the migration 2026-11-23T04-00_admin-pipeline): each list's stored, trigram-indexed search_text
 * column is the fold of its searchable fields, and the admin's query is folded by the same function
 * in the same statement, so "Jose" finds "José", "علي" finds "علی" and a zero-width non-joiner never
 * stands between a query and its record.
 */
import { sql } from "kysely";

/** Rows whose search_text contains the folded query anywhere (LIKE's own wildcards in it are taken literally). */
export const searchMatches = (query: string) =>
  sql<boolean>`search_text LIKE '%' || replace(replace(replace(search_fold(${query}), '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%'`;

/** The database's fold of a text, for tests and tools that want to see what the search compares. */
export const fold = (text: string) => sql<string>`search_fold(${text})`;
