/**
 * An audit entry in the panel's words: the action's name, who did it, what it touched and a short
 * note of its detail (the CSV keeps the whole detail). Pure: the texts come in, a string goes out.
 */
import type { AuditEntry } from "#shared/api/security.ts";
import { commaOf } from "#shared/format.ts";
import { enquiryReference, meetingReference } from "#shared/leads.ts";
import type { AdminCopy, AdminText } from "../copy";

type AuditTexts = AdminCopy["audit"];
/** What describing needs of the panel's texts: the audit group, the roles and outcomes, the fillers. */
export type Describer = Pick<AdminText, "f" | "p" | "lang"> & {
  copy: Pick<AdminCopy, "audit" | "common" | "outcome" | "leads">;
};

/** The locale key of an action: "signin.success" → "signinSuccess". */
export const actionKey = (action: string) => action.replace(/[.-](\w)/g, (_, letter: string) => letter.toUpperCase());

const named = <T extends object>(names: T, key: string): string | undefined =>
  Object.hasOwn(names, key) ? (names[key as keyof T] as unknown as string) : undefined;

/** The action's name in the panel's language (the raw name for one the panel does not know). */
export const actionName = (action: string, t: AuditTexts) => named(t.actions, actionKey(action)) ?? action;

/** Who did it: the account's name, else the typed name of a failed sign-in, else "nobody signed in". */
export function whoText(entry: AuditEntry, { copy, f }: Describer): string {
  if (entry.actor) return entry.actor;
  return entry.subject ? f(copy.audit.typed, { name: entry.subject }) : copy.audit.nobody;
}

const isId = (value: string) => /^\d{1,18}$/.test(value);

/** What it touched: a lead or meeting by number, a list or setting by name, else the target as recorded. */
export function targetText(entry: AuditEntry, { copy, f }: Describer): string {
  const t = copy.audit.targets;
  const { action, target } = entry;
  if (action.startsWith("lead.") && isId(target)) return f(t.lead, { id: enquiryReference(Number(target)) });
  if (action === "meeting.status" && isId(target)) return f(t.meeting, { id: meetingReference(Number(target)) });
  if (action === "export" || action === "settings.change") return named(t, actionKey(target)) ?? target;
  if (!target && entry.subject && action.startsWith("privacy.")) return entry.subject;
  return target;
}

const count = (value: unknown) => (typeof value === "number" && Number.isSafeInteger(value) ? value : undefined);

/** A short note of the detail, for the actions whose detail a person reads ("" otherwise). */
export function detailText(entry: AuditEntry, { copy, f, p, lang }: Describer): string {
  const d = copy.audit.detail;
  const { detail } = entry;
  const role = (value: unknown) =>
    typeof value === "string" ? (named(copy.common.roles, value) ?? value) : String(value ?? "");
  switch (entry.action) {
    case "role.change":
      return f(d.roleFromTo, { from: role(detail.from), to: role(detail.to) });
    case "invite":
    case "account.remove":
      return role(detail.role);
    case "export": {
      const rows = count(detail.rows);
      const filtered = detail.filters && typeof detail.filters === "object" && Object.keys(detail.filters).length > 0;
      return [rows === undefined ? "" : p(d.rows, rows), filtered || detail.searched === true ? d.filtered : ""]
        .filter(Boolean)
        .join(`${commaOf(lang)} `);
    }
    case "password.change": {
      const ended = count(detail.sessionsEnded);
      return ended ? p(d.sessionsEnded, ended) : "";
    }
    case "session.end":
      return detail.own === true ? d.ownSession : "";
    case "lead.status": {
      if (detail.deleted === true) return d.deleted;
      const stage = (value: unknown) => (typeof value === "string" ? (named(copy.leads.stages, value) ?? value) : "—");
      // Entries written before leads had stages (2026-11-29) say processed (new → replied) or pending.
      if (typeof detail.isProcessed === "boolean")
        return detail.isProcessed
          ? f(d.fromTo, { from: stage("new"), to: stage("replied") })
          : f(d.fromTo, { from: stage("replied"), to: stage("new") });
      return detail.to === undefined ? "" : f(d.fromTo, { from: stage(detail.from), to: stage(detail.to) });
    }
    case "lead.reply":
      // The reference the reply was about (E-00042): the email's subject carries it too.
      return typeof detail.reference === "string" ? detail.reference : "";
    case "lead.owner":
      return f(d.owner, { from: String(detail.fromName ?? "—"), to: String(detail.toName ?? "—") });
    case "lead.follow-up":
      return f(d.followUp, { from: String(detail.from ?? "—"), to: String(detail.to ?? "—") });
    case "lost-reason.change": {
      const labels =
        detail.labels && typeof detail.labels === "object" ? (detail.labels as Record<string, unknown>) : {};
      const label = typeof labels[lang] === "string" ? (labels[lang] as string) : "";
      const what =
        detail.archived === true
          ? d.archived
          : detail.archived === false
            ? d.restored
            : detail.added
              ? d.added
              : d.renamed;
      return [what, label].filter(Boolean).join(": ");
    }
    case "meeting.status": {
      if (detail.cancelled === true) return d.cancelled;
      // Staff's hand-over (names) and move (office times), functions/_lib/booking/staff-changes.ts.
      for (const kind of ["consultant", "moved"] as const) {
        const change = detail[kind];
        if (change && typeof change === "object") {
          const { from, to } = change as Record<string, unknown>;
          return f(d[kind], { from: String(from ?? "—"), to: String(to ?? "—") });
        }
      }
      if (typeof detail.isConfirmed === "boolean") return detail.isConfirmed ? d.confirmed : d.unconfirmed;
      if (detail.outcome === null) return f(d.outcome, { outcome: "—" });
      const outcome = typeof detail.outcome === "string" ? named(copy.outcome, actionKey(detail.outcome)) : undefined;
      return outcome ? f(d.outcome, { outcome }) : "";
    }
    default:
      return "";
  }
}

/** A country code and network prefix ("NL · 192.0.2.0/24") with the country named in the panel's language. */
export function placeText(place: string, regionName: (code: string) => string): string {
  const match = /^([A-Z]{2})(?: · (.+))?$/.exec(place);
  if (!match) return place;
  return match[2] ? `${regionName(match[1])} · ${match[2]}` : regionName(match[1]);
}
