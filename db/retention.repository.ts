import { type Kysely, sql } from "kysely";
import type { RetentionPolicy } from "#server/config.ts";
import { OFFICE_TIME_ZONE } from "#shared/office.ts";
import { anonymise } from "./privacy.repository.ts";
import { pruneViewDays, rollUpViews } from "./sources.repository.ts";
import { officeNow } from "#shared/dates.ts";
import { VIEW_STATS_MONTHS } from "#shared/sources.ts";
import type { Database } from "./types.ts";

export interface RetentionResult {
  /** Emails whose addresses and body were removed (the row stays, for the record's email status). */
  emailsEmptied: number;
  loginAttemptsDeleted: number;
  enquiriesAnonymised: number;
  meetingsAnonymised: number;
  /** Unconfirmed sign-ups and unsubscribed addresses deleted. */
  newsletterDeleted: number;
  /** Counted views of finished days folded into the daily counts and deleted. */
  viewsRolledUp: number;
  /** Daily view counts older than VIEW_STATS_MONTHS deleted. */
  viewDaysDeleted: number;
}

const ago = (at: Date, unit: "days" | "months", amount: number) =>
  unit === "days"
    ? sql<Date>`(${at.toISOString()}::timestamptz - make_interval(days => ${amount}))`
    : sql<Date>`(${at.toISOString()}::timestamptz - make_interval(months => ${amount}))`;

/**
 * Applies the retention policy as of `at`: removes what has been kept long enough, and nothing
 * else. Safe to run any number of times (each step only touches rows not yet done), in one
 * transaction, so a failed run changes nothing.
 */
export async function applyRetention(
  db: Kysely<Database>,
  policy: RetentionPolicy,
  at: Date,
): Promise<RetentionResult> {
  return db.transaction().execute(async (trx) => {
    // Sent emails, and emails given up on, keep their kind, subject, status and times only.
    const emptied = await trx
      .updateTable("emailOutbox")
      .set({ toAddress: "", replyTo: null, textBody: "", htmlBody: "", ics: null, listUnsubscribe: null })
      .where((eb) =>
        eb.or([
          eb.and([eb("status", "=", "sent"), eb("sentAt", "<", ago(at, "days", policy.emailDays))]),
          eb.and([eb("status", "=", "dead"), eb("createdAt", "<", ago(at, "days", policy.emailDays))]),
        ]),
      )
      .where((eb) => eb.or([eb("toAddress", "<>", ""), eb("textBody", "<>", ""), eb("htmlBody", "<>", "")]))
      .executeTakeFirst();

    const attempts = await trx
      .deleteFrom("loginAttempts")
      .where("attemptedAt", "<", ago(at, "days", policy.loginAttemptDays))
      .executeTakeFirst();

    // An enquiry's time counts from when it was processed; one never processed, from when it came in.
    const enquiries = await trx
      .selectFrom("enquiries")
      .select("id")
      .where("anonymisedAt", "is", null)
      .where(sql`coalesce(replied_at, created_at)`, "<", ago(at, "months", policy.recordMonths))
      .execute();
    // A meeting's time counts from its (office-local) day.
    const meetings = await trx
      .selectFrom("meetings")
      .select("id")
      .where("anonymisedAt", "is", null)
      .where(
        sql`date::date`,
        "<",
        sql`(${ago(at, "months", policy.recordMonths)} AT TIME ZONE ${OFFICE_TIME_ZONE}::text)::date`,
      )
      .execute();
    const anonymised = await anonymise(trx, {
      enquiries: enquiries.map((r) => r.id),
      meetings: meetings.map((r) => r.id),
    });

    const newsletter = await trx
      .deleteFrom("newsletterSubscribers")
      .where((eb) =>
        eb.or([
          eb.and([
            eb("confirmedAt", "is", null),
            eb("consentedAt", "<", ago(at, "days", policy.newsletterPendingDays)),
          ]),
          eb("unsubscribedAt", "<", ago(at, "days", policy.newsletterPendingDays)),
        ]),
      )
      .executeTakeFirst();

    // Counted views: a finished (office) day is folded into its daily counts and its rows deleted.
    const viewsRolledUp = await rollUpViews(trx, officeNow(at, OFFICE_TIME_ZONE).date);
    const viewDaysDeleted = await pruneViewDays(trx, at, VIEW_STATS_MONTHS);

    return {
      viewsRolledUp,
      viewDaysDeleted,
      emailsEmptied: Number(emptied.numUpdatedRows),
      loginAttemptsDeleted: Number(attempts.numDeletedRows),
      enquiriesAnonymised: anonymised.enquiries,
      meetingsAnonymised: anonymised.meetings,
      newsletterDeleted: Number(newsletter.numDeletedRows),
    };
  });
}
