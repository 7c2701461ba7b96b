import { type Kysely, sql } from "kysely";
import type { PersonNote } from "#shared/api/timeline.ts";
import { enquiryReference, meetingReference } from "#shared/leads.ts";
import { isSerialId, toIso } from "./rows.ts";
import type { Database } from "./types.ts";

/**
 * The admins' internal notes about a person (table lead_notes), kept under the person's address
 * (lower-cased) and written on one of their records. Only its author edits or deletes a note.
 */

/** A record a note is written on: an enquiry or a meeting, by id. */
export interface NoteRecord {
  kind: "enquiry" | "meeting";
  id: number;
}

const reference = (r: { enquiryId: number | null; meetingId: number | null }) =>
  r.enquiryId !== null ? enquiryReference(r.enquiryId) : meetingReference(r.meetingId!);

type NoteRow = {
  id: string;
  enquiryId: number | null;
  meetingId: number | null;
  authorId: number | null;
  authorUsername: string;
  body: string;
  createdAt: Date;
  updatedAt: Date;
};

const COLUMNS = [
  "id",
  "enquiryId",
  "meetingId",
  "authorId",
  "authorUsername",
  "body",
  "createdAt",
  "updatedAt",
] as const;

/** One note as the API shows it to `viewerId`. */
export const toPersonNote = (row: NoteRow, viewerId: number): PersonNote => ({
  id: String(row.id),
  reference: reference(row),
  text: row.body,
  by: row.authorUsername,
  mine: row.authorId === viewerId,
  createdAt: toIso(row.createdAt),
  updatedAt: toIso(row.updatedAt),
});

/** The person's address on a record; undefined when there is no such record, "" once it was erased. */
export async function recordEmail(db: Kysely<Database>, record: NoteRecord): Promise<string | undefined> {
  if (!isSerialId(record.id)) return undefined;
  const row = await db
    .selectFrom(record.kind === "enquiry" ? "enquiries" : "meetings")
    .select("email")
    .where("id", "=", record.id)
    .executeTakeFirst();
  return row?.email;
}

export type NoteWrite =
  | { outcome: "written"; note: PersonNote; email: string }
  | { outcome: "missing" }
  | { outcome: "erased" }
  | { outcome: "forbidden" };

/** Adds a note on a record, under its person's address. */
export async function addNote(
  db: Kysely<Database>,
  record: NoteRecord,
  body: string,
  author: { id: number; username: string },
): Promise<NoteWrite> {
  const email = await recordEmail(db, record);
  if (email === undefined) return { outcome: "missing" };
  if (!email) return { outcome: "erased" };
  const row = await db
    .insertInto("leadNotes")
    .values({
      email: email.toLowerCase(),
      enquiryId: record.kind === "enquiry" ? record.id : null,
      meetingId: record.kind === "meeting" ? record.id : null,
      authorId: author.id,
      authorUsername: author.username,
      body,
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return { outcome: "written", note: toPersonNote(row, author.id), email: email.toLowerCase() };
}

const noteId = (id: string) => /^\d{1,18}$/.test(id) && BigInt(id) <= 9_223_372_036_854_775_807n;

/**
 * Replaces a note's text (`body`) or, with null, deletes it: only its author may (forbidden
 * otherwise). The row is locked first, so two edits at once apply one after the other.
 */
export async function changeNote(
  db: Kysely<Database>,
  id: string,
  body: string | null,
  author: { id: number },
): Promise<NoteWrite> {
  if (!noteId(id)) return { outcome: "missing" };
  return db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom("leadNotes")
      .select(["authorId", "email"])
      .where("id", "=", id)
      .forUpdate()
      .executeTakeFirst();
    if (!current) return { outcome: "missing" } as const;
    if (current.authorId !== author.id) return { outcome: "forbidden" } as const;
    const row =
      body === null
        ? await trx.deleteFrom("leadNotes").where("id", "=", id).returning(COLUMNS).executeTakeFirstOrThrow()
        : await trx
            .updateTable("leadNotes")
            .set({ body, updatedAt: sql<Date>`now()` })
            .where("id", "=", id)
            .returning(COLUMNS)
            .executeTakeFirstOrThrow();
    return { outcome: "written", note: toPersonNote(row, author.id), email: current.email } as const;
  });
}

/** The person's notes, newest first, at most `limit`. */
export async function personNotes(
  db: Kysely<Database>,
  email: string,
  viewerId: number,
  limit: number,
  before?: Date,
): Promise<PersonNote[]> {
  const rows = await db
    .selectFrom("leadNotes")
    .select(COLUMNS)
    .where("email", "=", email.toLowerCase())
    .$if(before !== undefined, (q) => q.where("createdAt", "<", before!))
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => toPersonNote(r, viewerId));
}
