import type { Kysely } from "kysely";
import { isSerialId, toIso } from "./rows.ts";
import type { ContactSubmissionRow, Database } from "./types.ts";

/** A contact enquiry as the admin API returns it. */
export type ContactSubmission = {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  company: string | null;
  service: string;
  message: string;
  createdAt: string;
  isProcessed: boolean;
};

export type NewContactSubmissionInput = {
  firstName: string;
  lastName: string;
  email: string;
  company?: string | null;
  service: string;
  message: string;
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
    createdAt: toIso(row.createdAt),
    isProcessed: row.isProcessed,
  };
}

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
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toContactSubmission(row);
}

/** Every enquiry, newest first. */
export async function listSubmissions(db: Kysely<Database>): Promise<ContactSubmission[]> {
  const rows = await db
    .selectFrom("contactSubmissions")
    .selectAll()
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .execute();
  return rows.map(toContactSubmission);
}

/** Marks an enquiry processed or pending; undefined when there is no such enquiry. */
export async function setProcessed(
  db: Kysely<Database>,
  id: number,
  isProcessed: boolean,
): Promise<ContactSubmission | undefined> {
  if (!isSerialId(id)) return undefined;
  const row = await db
    .updateTable("contactSubmissions")
    .set({ isProcessed })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirst();
  return row && toContactSubmission(row);
}
