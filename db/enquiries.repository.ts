import { type ExpressionBuilder, type Kysely, type SelectQueryBuilder, sql } from "kysely";
import { officeNow } from "#shared/dates.ts";
import { defaultOfficeRules, type OfficeRules } from "#shared/office.ts";
import { lastOverdueArrivalDate } from "#shared/working-days.ts";
import { isUnfiltered, type EnquiryFilters, type EnquirySort } from "#shared/admin-lists.ts";
import type { AdminEnquiry, Enquiry, LeadBoard } from "#shared/api/enquiries.ts";
import { DEFAULT_LANGUAGE, requireLanguage, type Language } from "#shared/languages.ts";
import { newestNote, officeDayStart, toNote } from "./admin-rows.ts";
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
import { enquiryReference, LEAD_STAGES, OPEN_STAGES, parseReference } from "#shared/leads.ts";
import { searchMatches } from "./search.ts";
import { waitingOnUs } from "./waiting.ts";
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
function toEnquiry(
  row: Pick<
    EnquiryRow,
    "id" | "firstName" | "lastName" | "email" | "company" | "service" | "message" | "language" | "createdAt" | "stage"
  >,
): Enquiry {
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
    stage: row.stage,
  };
}

/** One row as the admin list answers it (also what bench:api's limit server maps its rows with). */
export const toAdminEnquiry = (row: AdminEnquiryRow): AdminEnquiry => ({
  ...toEnquiry(row),
  reference: enquiryReference(row.id),
  emailStatus: row.emailStatus,
  repliedAt: row.repliedAt && toIso(row.repliedAt),
  stageChangedAt: toIso(row.stageChangedAt),
  ownerId: row.ownerId,
  lostReasonId: row.lostReasonId,
  clientService: row.clientService,
  clientValueCents: row.clientValueCents,
  followUpOn: row.followUpOn,
  version: row.version,
  note: toNote(row),
  source: toLeadSource(row.source),
});

/** Every column an admin answer shows (not the search text, which only the WHERE reads). */
export const ADMIN_COLUMNS = [
  "id",
  "firstName",
  "lastName",
  "email",
  "company",
  "service",
  "message",
  "language",
  "createdAt",
  "stage",
  "repliedAt",
  "stageChangedAt",
  "ownerId",
  "lostReasonId",
  "clientService",
  "clientValueCents",
  "followUpOn",
  "version",
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

/** The orders the enquiries list offers: by arrival on the (…, created_at, id) indexes, or by follow-up date. */
export const ENQUIRY_ORDERS: Record<EnquirySort, KeysetOrder<AdminEnquiryRow>> = {
  newest: byCreated("desc", "newest"),
  oldest: byCreated("asc", "oldest"),
  "follow-up": {
    name: "follow-up",
    columns: ["follow_up_on", "id"],
    kinds: ["date", "id"],
    direction: "asc",
    key: (row) => [row.followUpOn!, row.id],
  },
};

/** What a list's filters are read against: the clock, the office rules and who asks ("mine"). */
export interface ListContext {
  now: Date;
  /** The office's stored rules, which only "overdue" counts by (filtersNeedRules); the defaults when absent. */
  rules?: OfficeRules;
  userId: number | null;
}

/** Whether the filters count working days, so their list must be given the office's stored rules. */
export const filtersNeedRules = (filters: EnquiryFilters) => filters.attention === "overdue";

/**
 * The leads that need the office: waiting on us (db/waiting.ts: no reply yet, or an answer of the
 * lead that no reply followed), or overdue: waiting past the answer time of
 * src/shared/working-days.ts (the dashboard's "within 2 working days"), or an open lead whose
 * follow-up day has come (office time). `rules` are the office's stored rules (closures count).
 */
function needsUs(
  attention: "waiting" | "overdue",
  { now, rules = defaultOfficeRules }: Pick<ListContext, "now" | "rules">,
) {
  if (attention === "waiting") return () => waitingOnUs("enquiries");
  const today = officeNow(now, rules.timeZone).date;
  const late = officeDayStart(lastOverdueArrivalDate(today, rules), 1);
  return (eb: ExpressionBuilder<Database, "enquiries">) =>
    eb.or([waitingOnUs("enquiries", late), eb.and([eb("followUpOn", "<=", today), eb("stage", "in", OPEN_STAGES)])]);
}

/** The WHERE of the filters (src/shared/admin-lists.ts); every one can use an index. */
function filtered<O>(
  query: SelectQueryBuilder<Database, "enquiries", O>,
  filters: EnquiryFilters,
  context: ListContext = { now: new Date(), userId: null },
) {
  const owner = filters.owner === "me" ? (context.userId ?? 0) : filters.owner;
  return listed(query)
    .$if(Boolean(filters.q), (q) => q.where(searchOrReference(filters.q!)))
    .$if(filters.stage !== undefined, (q) => q.where("stage", "=", filters.stage!))
    .$if(owner === "none", (q) => q.where("ownerId", "is", null))
    .$if(typeof owner === "number", (q) => q.where("ownerId", "=", owner as number))
    .$if(filters.attention !== undefined, (q) => q.where(needsUs(filters.attention!, context)))
    .$if(filters.sort === "follow-up", (q) => q.where("followUpOn", "is not", null))
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

/** Stores an enquiry; it starts as a new lead. An empty or missing company is stored as null. */
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
  return toEnquiry({ id, ...enquiryValues(input), createdAt: at, stage: "new" });
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
    stage: enquiry.stage,
    stageChangedAt: enquiry.createdAt,
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

/**
 * A search that is a reference (E-00042, e-42) finds that enquiry by id; any other text is looked
 * for in the search text (db/search.ts).
 */
function searchOrReference(q: string) {
  const reference = parseReference(q);
  if (reference?.kind === "enquiry") return sql<boolean>`id = ${reference.id}`;
  return searchMatches(q);
}

/** The query of one page of the enquiries list (limit + 1 rows, to know whether another page follows). */
export function enquiryPageQuery(
  db: Kysely<Database>,
  { limit = DEFAULT_PAGE_SIZE, cursor }: PageRequest = {},
  filters: EnquiryFilters = {},
  context?: ListContext,
) {
  const order = ENQUIRY_ORDERS[filters.sort ?? "newest"];
  return filtered(db.selectFrom("enquiries").select(ADMIN_COLUMNS).select(newestNote("enquiries")), filters, context)
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
  context?: ListContext,
): Promise<Page<AdminEnquiry>> {
  const order = ENQUIRY_ORDERS[filters.sort ?? "newest"];
  const limit = page.limit ?? DEFAULT_PAGE_SIZE;
  const rows =
    isUnfiltered(filters) && order.name !== "follow-up"
      ? await unfilteredEnquiries(db, order, { limit, cursor: page.cursor ?? null })
      : await enquiryPageQuery(db, page, filters, context).execute();
  return toPage(rows, limit, order, toAdminEnquiry);
}

// The inbox as it opens and pages on, without a filter: compiled once.
const unfilteredEnquiries = unfilteredPages(
  { newest: ENQUIRY_ORDERS.newest, oldest: ENQUIRY_ORDERS.oldest },
  (db: Kysely<Database>) => listed(db.selectFrom("enquiries").select(ADMIN_COLUMNS).select(newestNote("enquiries"))),
);

/** One enquiry as the admin list shows it, with its newest note; undefined when there is none. */
export async function getAdminEnquiry(db: Kysely<Database>, id: number): Promise<AdminEnquiry | undefined> {
  if (!isSerialId(id)) return undefined;
  const row = await db
    .selectFrom("enquiries")
    .select(ADMIN_COLUMNS)
    .select(newestNote("enquiries"))
    .where("id", "=", id)
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

/** How many cards each column of the board shows (the newest); the rest are in the list. */
export const BOARD_COLUMN_SIZE = 20;

/**
 * The lead desk's board: for each stage, how many leads match `filters` and the newest of them
 * (each column a read of the (stage, created_at, id) index; the counts one grouped read).
 */
export async function leadBoard(
  db: Kysely<Database>,
  filters: EnquiryFilters = {},
  context?: ListContext,
  size = BOARD_COLUMN_SIZE,
): Promise<LeadBoard> {
  const { stage: _stage, sort: _sort, ...rest } = filters;
  const [counts, ...columns] = await Promise.all([
    filtered(db.selectFrom("enquiries"), rest, context)
      .select(["stage", (eb) => eb.fn.countAll<string>().as("count")])
      .groupBy("stage")
      .execute(),
    ...LEAD_STAGES.map((stage) =>
      filtered(
        db.selectFrom("enquiries").select(ADMIN_COLUMNS).select(newestNote("enquiries")),
        { ...rest, stage },
        context,
      )
        .orderBy(orderBy(ENQUIRY_ORDERS.newest))
        .limit(size)
        .execute(),
    ),
  ]);
  const countOf = new Map(counts.map((c) => [c.stage, Number(c.count)]));
  return {
    columns: LEAD_STAGES.map((stage, i) => ({
      stage,
      count: countOf.get(stage) ?? 0,
      items: columns[i].map(toAdminEnquiry),
    })),
  };
}
