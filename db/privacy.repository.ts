import { type Kysely, sql } from "kysely";
import type { PersonalDataExport } from "#shared/api/privacy.ts";
import { toMeetingChange } from "./meetings.repository.ts";
import { toIso } from "./rows.ts";
import { trailKey } from "./login-attempts.repository.ts";
import type { Database } from "./types.ts";
import { toLeadSource } from "./sources.repository.ts";
import { enquiryReference, meetingReference } from "#shared/leads.ts";
import { NOTE_MAX_LENGTH } from "#shared/admin-lists.ts";

/**
 * One person's data, found by their email address (any case): everything held about it, as one
 * export, and its erasure. An erasure anonymises the person's enquiries and meetings (the rows stay,
 * so the counts still add up), and deletes their newsletter subscription, every email to, from or
 * about them, the admins' notes about them (lead_notes), the conversation on their enquiries
 * (lead_messages, in and out), and login attempts that typed the address. Their enquiries' changes
 * of stage, owner and follow-up date (lead_events) and their meetings' moves (meeting_changes) stay
 * with the anonymised rows: they hold staff names, stages, slots and consultants, nothing of the
 * person. Elsewhere their address is taken out of
 * other enquiries' messages, companies and notes, and their full name and phone number out of the
 * admin's notes on other records.
 */

/** What an anonymised enquiry or meeting keeps in place of the person's words. */
export const ANONYMISED_NAME = "Anonymised";
/** What stands where another enquiry quoted an erased address. */
const ADDRESS_REMOVED = "[address removed]";
/** What stands where an admin's note on another record named the erased person or their phone number. */
const NAME_REMOVED = "[name removed]";
const PHONE_REMOVED = "[phone removed]";

/**
 * The erased person's full names (as they gave them, two words or more) as whole words in any case
 * and spacing: "Ann Sfxname", "ANN  SFXNAME", not "Annie Sfxnamesson". A one-word name is left
 * alone: it would take other people's names with it.
 */
function namesPattern(names: readonly string[]): RegExp | null {
  const words = [...new Set(names.map((n) => n.trim().toLowerCase().split(/\s+/).join(" ")))].filter(
    (n) => n.includes(" ") && n !== ANONYMISED_NAME.toLowerCase(),
  );
  if (words.length === 0) return null;
  const alternatives = words.map((n) =>
    n
      .split(" ")
      .map((w) => w.replace(/[\\^$.|?*+()[\]{}]/g, (c) => `\\${c}`))
      .join("\\s+"),
  );
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives.join("|")})(?![\\p{L}\\p{N}])`, "giu");
}

/**
 * A run of text that may be a phone number: digits with the separators people write between them,
 * from a leading "+" or an area code's "(" ("(020) 555 0199") to the last digit.
 */
const PHONE_RUN = /(?:\+|\((?=[\d\s]+\)))?\d[\d\s().\-/]{4,}\d/g;
/**
 * What two spellings of one number share: its last nine digits ("+31 20 555 0199", "020-555 0199" and
 * "0031 (0)20 5550199" all end in 205550199), or all of them for a shorter number (six at least).
 */
const phoneKey = (text: string) => {
  const digits = text.replace(/\D/g, "");
  return digits.length < 6 ? null : digits.slice(-9);
};

/** `note` without the person's names and phone numbers (null when nothing of them is in it). */
function scrubPerson(note: string, names: RegExp | null, phones: ReadonlySet<string>): string | null {
  let scrubbed = names ? note.replace(names, NAME_REMOVED) : note;
  if (phones.size) {
    scrubbed = scrubbed.replace(PHONE_RUN, (run) => {
      const key = phoneKey(run);
      return key && phones.has(key) ? PHONE_REMOVED : run;
    });
  }
  return scrubbed === note ? null : scrubbed;
}

/**
 * A PostgreSQL regular expression (case-insensitive use: `~*`, flag 'i') that finds `email` as a
 * whole address in text: not inside a longer one ("joann.sfx@example.com" holds "ann.sfx@example.com"
 * but is not it), while a sentence's full stop after it still ends it. Group 1 is the character before.
 */
const wholeAddress = (email: string) =>
  `(^|[^a-z0-9._%+-])${email.toLowerCase().replace(/[\\^$.|?*+()[\]{}]/g, (c) => `\\${c}`)}(?=$|[^a-z0-9_.-]|\\.($|[^a-z0-9]))`;

/** The login-attempt key of a username that is this address (keyed: db/login-attempts.repository.ts). */
const loginKey = (email: string) => trailKey(`user:${email}`);
const sameAddress = (column: string, email: string) => sql<boolean>`lower(${sql.ref(column)}) = lower(${email})`;

/**
 * Blanks the personal fields of these enquiries and meetings and deletes their emails. Service,
 * language, dates and status stay. Returns how many of each were anonymised.
 */
export async function anonymise(
  db: Kysely<Database>,
  ids: { enquiries: readonly number[]; meetings: readonly number[] },
): Promise<{ enquiries: number; meetings: number; emails: number }> {
  let emails = 0;
  let enquiries = 0;
  let meetings = 0;
  if (ids.enquiries.length) {
    emails += Number(
      (await db.deleteFrom("emailOutbox").where("enquiryId", "in", ids.enquiries).executeTakeFirst()).numDeletedRows,
    );
    // The conversation with the lead (replies sent and answers received) is theirs too, and so are
    // the admins' notes written on it.
    await db.deleteFrom("leadMessages").where("enquiryId", "in", ids.enquiries).execute();
    await db.deleteFrom("leadNotes").where("enquiryId", "in", ids.enquiries).execute();
    const result = await db
      .updateTable("enquiries")
      .set({
        firstName: ANONYMISED_NAME,
        lastName: "",
        email: "",
        company: null,
        message: "",
        // Where they came from goes with them.
        source: null,
        anonymisedAt: sql<Date>`now()`,
      })
      .where("id", "in", ids.enquiries)
      .executeTakeFirst();
    enquiries = Number(result.numUpdatedRows);
  }
  if (ids.meetings.length) {
    emails += Number(
      (await db.deleteFrom("emailOutbox").where("meetingId", "in", ids.meetings).executeTakeFirst()).numDeletedRows,
    );
    await db.deleteFrom("leadNotes").where("meetingId", "in", ids.meetings).execute();
    const result = await db
      .updateTable("meetings")
      .set({
        name: ANONYMISED_NAME,
        email: "",
        phone: "",
        source: null,
        anonymisedAt: sql<Date>`now()`,
        // Every manage link in the person's mailbox is retired (410 linkReplaced): nothing leads here.
        manageVersion: sql<number>`manage_version + 1`,
      })
      .where("id", "in", ids.meetings)
      .executeTakeFirst();
    meetings = Number(result.numUpdatedRows);
  }
  return { enquiries, meetings, emails };
}

/**
 * The rows that belong to one address: its enquiries, meetings and emails. With `quoting`, also
 * emails about someone else's record whose text names the address (an erasure removes those; an
 * export leaves them out, as they are another person's data).
 */
async function findRows(db: Kysely<Database>, email: string, { quoting }: { quoting: boolean }) {
  const enquiries = await db
    .selectFrom("enquiries")
    .selectAll()
    .where(sameAddress("email", email))
    .orderBy("id")
    .execute();
  const meetings = await db
    .selectFrom("meetings")
    .selectAll()
    .where(sameAddress("email", email))
    .orderBy("id")
    .execute();
  const enquiryIds = enquiries.map((r) => r.id);
  const meetingIds = meetings.map((r) => r.id);
  const emails = await db
    .selectFrom("emailOutbox")
    .selectAll()
    .where((eb) =>
      eb.or([
        sameAddress("toAddress", email),
        sameAddress("replyTo", email),
        ...(quoting ? [eb(sql`text_body`, "~*", wholeAddress(email))] : []),
        ...(enquiryIds.length ? [eb("enquiryId", "in", enquiryIds)] : []),
        ...(meetingIds.length ? [eb("meetingId", "in", meetingIds)] : []),
      ]),
    )
    .orderBy("id")
    .execute();
  return { enquiries, meetings, emails };
}

/** The reference of the enquiry or meeting a note was written on. */
const recordReference = (r: { enquiryId: number | null; meetingId: number | null }) =>
  r.enquiryId !== null ? enquiryReference(r.enquiryId) : meetingReference(r.meetingId!);

/** Everything held about one address, for the person who asks (GDPR art. 15 and 20). */
export async function exportPersonalData(db: Kysely<Database>, email: string, at: Date): Promise<PersonalDataExport> {
  const { enquiries, meetings, emails } = await findRows(db, email, { quoting: false });
  const enquiryIds = enquiries.map((r) => r.id);
  const notes = await db
    .selectFrom("leadNotes")
    .select(["enquiryId", "meetingId", "body", "authorUsername", "createdAt", "updatedAt"])
    .where("email", "=", email.trim().toLowerCase())
    .orderBy("createdAt")
    .orderBy("id")
    .execute();
  const messages = enquiryIds.length
    ? await db
        .selectFrom("leadMessages")
        .selectAll()
        .where("enquiryId", "in", enquiryIds)
        .orderBy("createdAt")
        .orderBy("id")
        .execute()
    : [];
  const events = enquiryIds.length
    ? await db
        .selectFrom("leadEvents")
        .selectAll()
        .where("enquiryId", "in", enquiryIds)
        .orderBy("at")
        .orderBy("id")
        .execute()
    : [];
  const meetingIds = meetings.map((r) => r.id);
  const changes = meetingIds.length
    ? await db
        .selectFrom("meetingChanges")
        .selectAll()
        .where("meetingId", "in", meetingIds)
        .orderBy("at")
        .orderBy("id")
        .execute()
    : [];
  const newsletter = await db
    .selectFrom("newsletterSubscribers")
    .selectAll()
    .where(sameAddress("email", email))
    .execute();
  const loginAttempts = await db
    .selectFrom("loginAttempts")
    .select(["key", "attemptedAt"])
    .where("key", "=", loginKey(email))
    .orderBy("attemptedAt")
    .execute();
  const admin = await db
    .selectFrom("users")
    .select(["username", "createdAt"])
    .where(sameAddress("username", email))
    .executeTakeFirst();
  const leadMessages = enquiries.length
    ? await db
        .selectFrom("leadMessages")
        .select(["enquiryId", "direction", "fromAddress", "toAddress", "subject", "textBody", "createdAt"])
        .where(
          "enquiryId",
          "in",
          enquiries.map((r) => r.id),
        )
        .orderBy("id")
        .execute()
    : [];
  const iso = (value: Date | string | null) => (value === null ? null : toIso(value));
  return {
    email,
    exportedAt: at.toISOString(),
    enquiries: enquiries.map((r) => ({
      id: r.id,
      firstName: r.firstName,
      lastName: r.lastName,
      email: r.email,
      company: r.company,
      service: r.service,
      message: r.message,
      language: r.language,
      createdAt: toIso(r.createdAt),
      stage: r.stage,
      repliedAt: iso(r.repliedAt),
      source: toLeadSource(r.source),
    })),
    meetings: meetings.map((r) => ({
      id: r.id,
      name: r.name,
      email: r.email,
      phone: r.phone,
      date: r.date,
      time: r.time,
      language: r.language,
      createdAt: toIso(r.createdAt),
      isConfirmed: r.isConfirmed,
      cancelledAt: iso(r.cancelledAt),
      source: toLeadSource(r.source),
      consultant: r.consultantId,
    })),
    notes: notes.map((r) => ({
      reference: recordReference(r),
      text: r.body,
      by: r.authorUsername,
      createdAt: toIso(r.createdAt),
      updatedAt: toIso(r.updatedAt),
    })),
    messages: messages.map((r) => ({
      reference: enquiryReference(r.enquiryId),
      direction: r.direction,
      from: r.fromAddress,
      to: r.toAddress,
      subject: r.subject,
      text: r.textBody,
      sentBy: r.sentBy,
      createdAt: toIso(r.createdAt),
    })),
    leadEvents: events.map((r) => ({
      reference: enquiryReference(r.enquiryId),
      kind: r.kind,
      from: r.fromValue,
      to: r.toValue,
      by: r.actorUsername,
      at: toIso(r.at),
    })),
    meetingChanges: changes.map((r) => ({
      reference: meetingReference(r.meetingId),
      ...toMeetingChange(r),
      at: toIso(r.at),
    })),
    newsletter: newsletter.map((r) => ({
      email: r.email,
      language: r.language,
      signedUpAt: toIso(r.consentedAt),
      signedUpOnPage: r.consentPage,
      confirmedAt: iso(r.confirmedAt),
      unsubscribedAt: iso(r.unsubscribedAt),
      isActive: r.isActive,
    })),
    emails: emails.map((r) => ({
      kind: r.kind,
      to: r.toAddress,
      replyTo: r.replyTo,
      subject: r.subject,
      text: r.textBody,
      status: r.status,
      createdAt: toIso(r.createdAt),
      sentAt: iso(r.sentAt),
    })),
    leadMessages: leadMessages.map((r) => ({
      enquiryId: r.enquiryId,
      direction: r.direction,
      from: r.fromAddress,
      to: r.toAddress,
      subject: r.subject,
      text: r.textBody,
      createdAt: toIso(r.createdAt),
    })),
    loginAttempts: loginAttempts.map((r) => ({ key: r.key, attemptedAt: toIso(r.attemptedAt) })),
    adminAccount: admin ? { username: admin.username, createdAt: toIso(admin.createdAt) } : null,
  };
}

export interface ErasureCounts {
  enquiries: number;
  meetings: number;
  newsletter: number;
  emails: number;
  loginAttempts: number;
}

/**
 * Erases one address (GDPR art. 17), in one transaction: its enquiries and meetings anonymised, its
 * newsletter subscription, emails and login attempts deleted. A staff account named by the address
 * is not touched, nor its failed sign-ins (remove it with the admin tooling); the export shows it.
 */
export async function erasePersonalData(db: Kysely<Database>, email: string): Promise<ErasureCounts> {
  return db.transaction().execute(async (trx) => {
    const { enquiries, meetings, emails } = await findRows(trx, email, { quoting: true });
    const anonymised = await anonymise(trx, {
      enquiries: enquiries.map((r) => r.id),
      meetings: meetings.map((r) => r.id),
    });
    // The rest: emails to or from the address, or quoting it, that belong to no record of theirs.
    const rest = emails.map((r) => r.id);
    const otherEmails = rest.length
      ? Number((await trx.deleteFrom("emailOutbox").where("id", "in", rest).executeTakeFirst()).numDeletedRows)
      : 0;
    // Every note kept under the address goes (those on their records went above).
    await trx.deleteFrom("leadNotes").where("email", "=", email.trim().toLowerCase()).execute();
    // Someone else's enquiry or conversation, or an admin's note about someone else, may quote the
    // address: the address goes, the rest stays (a note kept within its length).
    const pattern = wholeAddress(email);
    const scrub = [
      ["enquiries", "message"],
      ["enquiries", "company"],
      ["leadNotes", "body"],
      ["leadMessages", "textBody"],
      ["leadMessages", "subject"],
    ] as const;
    for (const [table, column] of scrub) {
      await trx
        .updateTable(table)
        .set({
          [column]:
            table === "leadNotes"
              ? sql<string>`left(regexp_replace(body, ${pattern}, ${`\\1${ADDRESS_REMOVED}`}, 'gi'), ${NOTE_MAX_LENGTH})`
              : sql<string>`regexp_replace(${sql.ref(column)}, ${pattern}, ${`\\1${ADDRESS_REMOVED}`}, 'gi')`,
        })
        .where(sql.ref(column), "~*", pattern)
        .execute();
    }
    // An admin's note on another record may also name the person or give their phone number, however
    // written: those go too. (Another visitor's own message keeps its words; only the address goes.)
    const names = namesPattern([
      ...enquiries.map((r) => `${r.firstName} ${r.lastName}`),
      ...meetings.map((r) => r.name),
    ]);
    const phones = new Set(meetings.map((r) => phoneKey(r.phone)).filter((k): k is string => k !== null));
    if (names || phones.size) {
      const notes = await trx.selectFrom("leadNotes").select(["id", "body"]).execute();
      for (const { id, body } of notes) {
        const scrubbed = scrubPerson(body, names, phones);
        if (scrubbed !== null)
          await trx
            .updateTable("leadNotes")
            .set({ body: scrubbed.slice(0, NOTE_MAX_LENGTH) })
            .where("id", "=", id)
            .execute();
      }
    }
    const newsletter = await trx
      .deleteFrom("newsletterSubscribers")
      .where(sameAddress("email", email))
      .executeTakeFirst();
    // Failed sign-ins that typed the address are a visitor's, unless it is a staff account's username:
    // then they are that account's trail.
    const attempts = await trx
      .deleteFrom("loginAttempts")
      .where("key", "=", loginKey(email))
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom("users").select("id").where(sameAddress("username", email)))),
      )
      .executeTakeFirst();
    return {
      enquiries: anonymised.enquiries,
      meetings: anonymised.meetings,
      newsletter: Number(newsletter.numDeletedRows),
      emails: anonymised.emails + otherEmails,
      loginAttempts: Number(attempts.numDeletedRows),
    };
  });
}
