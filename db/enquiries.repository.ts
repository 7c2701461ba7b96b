import { type Kysely, type SelectQueryBuilder, sql } from "kysely";
import { isUnfiltered, type EnquiryFilters, type EnquirySort } from "#shared/admin-lists.ts";
import type { AdminEnquiry, Enquiry } from "#shared/api/enquiries.ts";
import { DEFAULT_LANGUAGE, requireLanguage, type Language } from "#shared/languages.ts";
import { officeDayStart, toNote } from "./admin-rows.ts";
import {
  after,
  DEFAULT_PAGE_SIZE,
  type KeysetOrder,
  orderBy,
  type Page,
  type PageRequest,
  toPage,
  unfilteredPages,
} from "./paging.ts";
import { isSerialId, toIso } from "./rows.ts";
import { searchMatches } from "./search.ts";
import { type OutboxMessage, outboxValues } from "./outbox.repository.ts";
import type { AdminEnquiryRow, Database, EnquiryRow } from "./types.ts";
import { toLeadSource } from "./sources.repository.ts";
import type { LeadSource } from "#shared/sources.ts";

export type NewEnquiryInput = {
  firstName: string;
  lastName: string;
  email: string;
  company?: string | null;
  service: string;
  message: string;
  /** Defaults to DEFAULT_LANGUAGE. */
  language?: Language;
  /** Where it came from (functions/_lib/sources.ts); null or missing when nothing is known. */
  source?: LeadSource | null;
};

/** A row as the API shows it; a stored language that is no longer one of ours fails here, loudly. */
function toEnquiry(row: Omit<EnquiryRow, "anonymisedAt">): Enquiry {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    company: row.company,
    service: row.service,
    message: row.message,
    language: requireLanguage(row.language, `enquiries #${row.id}`),
    createdAt: toIso(row.createdAt),
    isProcessed: row.isProcessed,
  };
}

/** One row as the admin list answers it (also what bench:api's limit server maps its rows with). */
export const toAdminEnquiry = (row: AdminEnquiryRow): AdminEnquiry => ({
  ...toEnquiry(row),
  emailStatus: row.emailStatus,
  processedAt: row.processedAt && toIso(row.processedAt),
  note: toNote(row),
  source: toLeadSource(row.source),
});

/** Every column an admin answer shows (not the search text, which only the WHERE reads). */
const ADMIN_COLUMNS = [
  "id",
  "firstName",
  "lastName",
  "email",
  "company",
  "service",
  "message",
  "language",
  "createdAt",
  "isProcessed",
  "processedAt",
  "note",
  "noteBy",
  "noteAt",
  "emailStatus",
  "source",
] as const;

const byCreated = (direction: "asc" | "desc", name: EnquirySort): KeysetOrder<AdminEnquiryRow> => ({
  name,
  columns: ["created_at", "id"],
  kinds: ["instant", "id"],
  direction,
  key: (row) => [toIso(row.createdAt), row.id],
});

/** The orders the enquiries list offers; both run on the (created_at, id) indexes. */
export const ENQUIRY_ORDERS: Record<EnquirySort, KeysetOrder<AdminEnquiryRow>> = {
  newest: byCreated("desc", "newest"),
  oldest: byCreated("asc", "oldest"),
};

/** The WHERE of the filters (src/shared/admin-lists.ts); every one can use an index. */
function filtered<O>(query: SelectQueryBuilder<Database, "enquiries", O>, filters: EnquiryFilters) {
  return listed(query)
    .$if(Boolean(filters.q), (q) => q.where(searchMatches(filters.q!)))
    .$if(filters.status !== undefined, (q) => q.where("isProcessed", "=", filters.status === "processed"))
    .$if(filters.service !== undefined, (q) => q.where("service", "=", filters.service!))
    .$if(filters.language !== undefined, (q) => q.where("language", "=", filters.language!))
    .$if(filters.from !== undefined, (q) => q.where("createdAt", ">=", officeDayStart(filters.from!)))
    .$if(filters.to !== undefined, (q) => q.where("createdAt", "<", officeDayStart(filters.to!, 1)));
}

/**
 * The enquiries the admin's lists show: not an erased person's (db/privacy.repository.ts keeps its
 * row, anonymised, so that the figures over time still add up; there is nothing left to work on).
 */
const listed = <O>(query: SelectQueryBuilder<Database, "enquiries", O>) => query.where("anonymisedAt", "is", null);

/** The columns an enquiry is stored with: an empty or missing company as null. */
const enquiryValues = (input: NewEnquiryInput) => ({
  firstName: input.firstName,
  lastName: input.lastName,
  email: input.email,
  company: input.company || null,
  service: input.service,
  message: input.message,
  language: input.language ?? DEFAULT_LANGUAGE,
  source: input.source ? JSON.stringify(input.source) : null,
});

/** Stores an enquiry; it starts unprocessed. An empty or missing company is stored as null. */
export async function createEnquiry(db: Kysely<Database>, input: NewEnquiryInput): Promise<Enquiry> {
  const row = await db.insertInto("enquiries").values(enquiryValues(input)).returningAll().executeTakeFirstOrThrow();
  return toEnquiry(row);
}

/** An id and creation time reserved for a new record (admit() in db/admission.repository.ts). */
export interface Reserved {
  id: number;
  at: Date;
}

/**
 * The enquiry `input` becomes when storeEnquiry stores it under its reserved id and time (what its
 * emails are written from before it is stored).
 */
export function newEnquiry(input: NewEnquiryInput, { id, at }: Reserved): Enquiry {
  return toEnquiry({ id, ...enquiryValues(input), createdAt: at, isProcessed: false, processedAt: null });
}

/**
 * Stores a newEnquiry and its emails in ONE statement (an INSERT of the enquiry in a WITH, then its
 * outbox rows): atomic on its own, so one round trip instead of BEGIN, two INSERTs and COMMIT.
 * `source` is where it came from. Returns the emails' ids.
 */
export async function storeEnquiry(
  db: Kysely<Database>,
  enquiry: Enquiry,
  emails: OutboxMessage[],
  source: LeadSource | null = null,
): Promise<string[]> {
  const stored = db.insertInto("enquiries").values({
    id: enquiry.id,
    ...enquiryValues({ ...enquiry, source }),
    createdAt: enquiry.createdAt,
    isProcessed: enquiry.isProcessed,
  });
  if (!emails.length) {
    await stored.execute();
    return [];
  }
  // A data-modifying WITH always runs, whether or not the statement reads it; the outbox rows'
  // foreign key is checked at the end of the statement, when the enquiry is there.
  const rows = await db
    .with("enquiry", () => stored.returning("id"))
    .insertInto("emailOutbox")
    .values(outboxValues(emails))
    .returning("id")
    .execute();
  return rows.map((r) => String(r.id));
}

/** The query of one page of the enquiries list (limit + 1 rows, to know whether another page follows). */
export function enquiryPageQuery(
  db: Kysely<Database>,
  { limit = DEFAULT_PAGE_SIZE, cursor }: PageRequest = {},
  filters: EnquiryFilters = {},
) {
  const order = ENQUIRY_ORDERS[filters.sort ?? "newest"];
  return filtered(db.selectFrom("enquiries").select(ADMIN_COLUMNS), filters)
    .$if(Boolean(cursor), (q) => q.where(after(order, cursor!)))
    .orderBy(orderBy(order))
    .limit(limit + 1);
}

/**
 * The enquiries that match `filters`, a page at a time, newest first unless sorted otherwise, with
 * the state of their emails and their notes.
 */
export async function listEnquiries(
  db: Kysely<Database>,
  page: PageRequest = {},
  filters: EnquiryFilters = {},
): Promise<Page<AdminEnquiry>> {
  const order = ENQUIRY_ORDERS[filters.sort ?? "newest"];
  const limit = page.limit ?? DEFAULT_PAGE_SIZE;
  const rows = isUnfiltered(filters)
    ? await unfilteredEnquiries(db, order, { limit, cursor: page.cursor ?? null })
    : await enquiryPageQuery(db, page, filters).execute();
  return toPage(rows, limit, order, toAdminEnquiry);
}

// The inbox as it opens and pages on, without a filter: compiled once.
const unfilteredEnquiries = unfilteredPages(ENQUIRY_ORDERS, (db: Kysely<Database>) =>
  listed(db.selectFrom("enquiries").select(ADMIN_COLUMNS)),
);

/** Marks an enquiry processed or pending; undefined when there is no such enquiry. */
export async function setEnquiryProcessed(
  db: Kysely<Database>,
  id: number,
  isProcessed: boolean,
): Promise<AdminEnquiry | undefined> {
  if (!isSerialId(id)) return undefined;
  const row = await db
    .updateTable("enquiries")
    .set((eb) => ({
      isProcessed,
      // Marking a processed enquiry processed again keeps the time it was first answered.
      processedAt: isProcessed ? eb.fn.coalesce("processedAt", sql<Date>`now()`) : null,
    }))
    .where("id", "=", id)
    .returning(ADMIN_COLUMNS)
    .executeTakeFirst();
  return row && toAdminEnquiry(row);
}

/** Sets (or, with an empty text, removes) the internal note of an enquiry; undefined when there is no such enquiry. */
export async function setEnquiryNote(
  db: Kysely<Database>,
  id: number,
  text: string,
  by: string,
): Promise<AdminEnquiry | undefined> {
  if (!isSerialId(id)) return undefined;
  const row = await db
    .updateTable("enquiries")
    .set(text ? { note: text, noteBy: by, noteAt: sql<Date>`now()` } : { note: null, noteBy: null, noteAt: null })
    .where("id", "=", id)
    .returning(ADMIN_COLUMNS)
    .executeTakeFirst();
  return row && toAdminEnquiry(row);
}

/**
 * Deletes an enquiry for good (spam), with its emails: the outbox rows go with it (ON DELETE CASCADE),
 * so a pending acknowledgement is never sent. False when there is no such enquiry.
 */
export async function deleteEnquiry(db: Kysely<Database>, id: number): Promise<boolean> {
  if (!isSerialId(id)) return false;
  const deleted = await db.deleteFrom("enquiries").where("id", "=", id).returning("id").executeTakeFirst();
  return deleted !== undefined;
}
