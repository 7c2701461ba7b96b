/**
 * The office's rules and clock as the server sees them: the stored rules with what the environment
 * adds (BOOKING_HORIZON_DAYS, BOOKING_CLOSED_DATES), and "now" (BOOKING_NOW in tests). Kept apart
 * from server/config.ts, which is the environment only.
 */
import { defaultOfficeRules, type OfficeRules } from "#shared/office.ts";
import { envVersion, isProduction, serverEnv } from "./config.ts";

/** The editable part of the office rules, as the database holds it (db/availability.repository.ts). */
export type EditableRules = Pick<OfficeRules, "hours" | "publicHolidays"> & {
  closures: readonly { from: string; to: string; yearly: boolean }[];
  guardrails?: OfficeRules["guardrails"];
};

/** The defaults with the environment's horizon and closed dates, made again only when the environment changes. */
let fromEnv: { version: number; rules: Readonly<OfficeRules> } | undefined;

function environmentRules(): Readonly<OfficeRules> {
  const version = envVersion();
  if (fromEnv?.version === version) return fromEnv.rules;
  const env = serverEnv();
  const rules = Object.freeze({
    ...defaultOfficeRules,
    horizonDays: env.BOOKING_HORIZON_DAYS,
    closedDates: [...new Set([...defaultOfficeRules.closedDates, ...env.BOOKING_CLOSED_DATES])].sort(),
  });
  fromEnv = { version, rules };
  return rules;
}

/**
 * The office rules: the stored (admin-edited) hours, closures and holiday switch, with the horizon
 * and the extra closed dates of the environment. Without stored rules, the defaults of
 * src/shared/office.ts (what a new database starts with), the same frozen object until the
 * environment changes.
 */
export function officeRules(stored?: EditableRules): OfficeRules {
  const base = environmentRules();
  if (!stored) return base;
  return {
    ...base,
    hours: stored.hours,
    publicHolidays: stored.publicHolidays,
    closedRanges: stored.closures.map(({ from, to, yearly }) => ({ from, to, yearly })),
    guardrails: stored.guardrails ?? defaultOfficeRules.guardrails,
  };
}

/** "Now", overridable by BOOKING_NOW in tests of the local runtime only (never in production). */
export function now(): Date {
  const fixed = serverEnv().BOOKING_NOW;
  return fixed && !isProduction() ? new Date(fixed) : new Date();
}
