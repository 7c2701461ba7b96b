import { type Kysely, sql } from "kysely";
import type { AdminEnquiry, EmailStatus, Enquiry } from "../src/shared/api.ts";
import { DEFAULT_LANGUAGE, requireLanguage, type Language } from "../src/shared/languages.ts";
import { enquiryEmailStatus } from "./outbox.repository.ts";
import { after, decodeCursor, DEFAULT_PAGE_SIZE, type Page, type PageRequest, toPage } from "./paging.ts";
import { isSerialId, toIso } from "./rows.ts";
import type { Database, EnquiryRow } from "./types.ts";

export type NewEnquiryInput = {
  firstName: string;
  lastName: string;
  email: string;
  company?: string | null;
  service: string;
  message: string;
  /** Defaults to DEFAULT_LANGUAGE. */
  language?: Language;
};

/** A row as the API shows it; a stored language that is no longer one of ours fails here, loudly. */
function toEnquiry(row: EnquiryRow): Enquiry {
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

const toAdminEnquiry = (row: EnquiryRow & { emailStatus: EmailStatus | null }): AdminEnquiry => ({
  ...toEnquiry(row),
  emailStatus: row.emailStatus,
});

/** Stores an enquiry; it starts unprocessed. An empty or missing company is stored as null. */
export async function createEnquiry(db: Kysely<Database>, input: NewEnquiryInput): Promise<Enquiry> {
  const row = await db
    .insertInto("enquiries")
    .values({
      firstName: input.firstName,
      lastName: input.lastName,
      email: input.email,
      company: input.company || null,
      service: input.service,
      message: input.message,
      language: input.language ?? DEFAULT_LANGUAGE,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toEnquiry(row);
}

/** Every enquiry, newest first, with the state of its emails. */
export async function listEnquiries(
  db: Kysely<Database>,
  { limit = DEFAULT_PAGE_SIZE, cursor }: PageRequest = {},
): Promise<Page<AdminEnquiry>> {
  const position = cursor ? decodeCursor(cursor) : null;
  const rows = await db
    .selectFrom("enquiries")
    .selectAll()
    .select(enquiryEmailStatus())
    .$if(position !== null, (q) => q.where(after(position!)))
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(limit + 1)
    .execute();
  return toPage(rows, limit, toAdminEnquiry);
}

/** Marks an enquiry processed or pending; undefined when there is no such enquiry. */
export async function setEnquiryProcessed(
  db: Kysely<Database>,
  id: number,
  isProcessed: boolean,
): Promise<AdminEnquiry | undefined> {
  if (!isSerialId(id)) return undefined;
  const row = await db
    .updateTable("enquiries")
    // Retention counts from the moment it was processed; marking it pending again stops that clock.
    .set({ isProcessed, processedAt: isProcessed ? sql<Date>`coalesce(processed_at, now())` : null })
    .where("id", "=", id)
    .returningAll()
    .returning(enquiryEmailStatus())
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
