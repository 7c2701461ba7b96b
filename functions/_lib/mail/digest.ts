/**
 * The owners' morning digest (issue 42): on working days from 08:30 office time (DIGEST_TIME of
 * src/shared/follow-ups.ts), one email to each owner with something due (their due follow-ups and
 * their overdue waiting leads), in their panel's language; nothing to an owner with nothing due.
 * Run by the schedule's frequent run (functions/_lib/schedule.ts), so it goes out at the first run
 * from 08:30 on (08:30 in production). Each owner's (owner, office day) row is claimed with the
 * outbox insert: several instances and retried runs queue one digest per owner per day.
 */
import type { Kysely } from "kysely";
import { claimDigest, digestRecipients, dueLeads, pruneDigests } from "#db/follow-ups.repository.ts";
import type { Database } from "#db/types.ts";
import { site } from "#config/site.ts";
import { digestDay, type DueLead } from "#shared/follow-ups.ts";
import { isLanguage } from "#shared/languages.ts";
import type { OfficeRules } from "#shared/office.ts";
import { dueDigestEmail } from "./templates.ts";

/** The most leads one digest lists; the dashboard shows the rest. */
const DIGEST_LEADS = 200;

/** Queues the digests due at `now`; answers how many were queued (0 before 08:30, on a day off, or when already sent). */
export async function queueDigests(db: Kysely<Database>, now: Date, rules: OfficeRules): Promise<number> {
  const today = digestDay(now, rules);
  if (!today) return 0;
  const due = await dueLeads(db, now, rules, { limit: 5000 });
  const byOwner = new Map<number, DueLead[]>();
  for (const lead of due) {
    if (lead.ownerId === null) continue;
    byOwner.set(lead.ownerId, [...(byOwner.get(lead.ownerId) ?? []), lead]);
  }
  let queued = 0;
  for (const owner of await digestRecipients(db, [...byOwner.keys()])) {
    const leads = byOwner.get(owner.id)!.slice(0, DIGEST_LEADS);
    const lang = isLanguage(owner.panelLanguage) ? owner.panelLanguage : "en";
    const email = dueDigestEmail(lang, { username: owner.username, today, leads });
    const id = await claimDigest(db, owner.id, today, leads.length, {
      kind: "digest",
      to: owner.email,
      replyTo: site.email,
      ...email,
    });
    if (id) queued++;
  }
  await pruneDigests(db, today);
  return queued;
}
