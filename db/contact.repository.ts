import type { Kysely } from "kysely";
import { type EmailStatus, submissionEmailStatus } from "./outbox.repository.ts";
import { after, decodeCursor, DEFAULT_PAGE_SIZE, type Page, type PageRequest, toPage } from "./paging.ts";
import { isSerialId, toIso } from "./rows.ts";
import type { ContactSubmissionRow, Database } from "./types.ts";

/** A contact enquiry as the API returns it. */
export type ContactSubmission = {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  company: string | null;
  service: string;
  message: string;
  /** The visitor's language (en, nl, fa). */
  language: string;
  createdAt: string;
  isProcessed: boolean;
};

/** An enquiry as the admin lists show it: with the state of its notification emails. */
export type AdminContactSubmission = ContactSubmission & { emailStatus: EmailStatus | null };

export type NewContactSubmissionInput = {
  firstName: string;
  lastName: string;
  email: string;
  company?: string | null;
  service: string;
  message: string;
  /** Defaults to en. */
  language?: string;
};

function toContactSubmission(row: ContactSubmissionRow): ContactSubmission {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    company: row.company,
    service: row.service,
    message: row.message,
    language: row.language,
    createdAt: toIso(row.createdAt),
    isProcessed: row.isProcessed,
  };
}

const toAdminSubmission = (
  row: ContactSubmissionRow & { emailStatus: EmailStatus | null },
): AdminContactSubmission => ({
  ...toContactSubmission(row),
  emailStatus: row.emailStatus,
});

/** Stores an enquiry; it starts unprocessed. An empty or missing company is stored as null. */
export async function createSubmission(
  db: Kysely<Database>,
  input: NewContactSubmissionInput,
): Promise<ContactSubmission> {
  const row = await db
    .insertInto("contactSubmissions")
    .values({
      firstName: input.firstName,
      lastName: input.lastName,
      email: input.email,
      company: input.company || null,
      service: input.service,
      message: input.message,
      language: input.language ?? "en",
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toContactSubmission(row);
}

/** Every enquiry, newest first, with the state of its emails. */
export async function listSubmissions(
  db: Kysely<Database>,
  { limit = DEFAULT_PAGE_SIZE, cursor }: PageRequest = {},
): Promise<Page<AdminContactSubmission>> {
  const position = cursor ? decodeCursor(cursor) : null;
  const rows = await db
    .selectFrom("contactSubmissions")
    .selectAll()
    .select(submissionEmailStatus())
    .$if(position !== null, (q) => q.where(after(position!)))
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(limit + 1)
    .execute();
  return toPage(rows, limit, toAdminSubmission);
}

/** Marks an enquiry processed or pending; undefined when there is no such enquiry. */
export async function setProcessed(
  db: Kysely<Database>,
  id: number,
  isProcessed: boolean,
): Promise<AdminContactSubmission | undefined> {
  if (!isSerialId(id)) return undefined;
  const row = await db
    .updateTable("contactSubmissions")
    .set({ isProcessed })
    .where("id", "=", id)
    .returningAll()
    .returning(submissionEmailStatus())
    .executeTakeFirst();
  return row && toAdminSubmission(row);
}
