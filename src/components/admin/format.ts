/** How the dashboard shows dates and times; service names come from the locale file. */

const dateTime = new Intl.DateTimeFormat("en-US", {
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});
const dateOnly = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric" });

/** An ISO timestamp in US English short form, e.g. "Mar 5, 2025, 02:07 PM" (the browser's time zone). */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}

/**
 * A yyyy-MM-dd calendar date as a local date, e.g. "Mar 5, 2025". It is built from its parts, not
 * parsed: `new Date("2025-03-05")` means UTC midnight, which is the day before west of Greenwich.
 */
export function formatCalendarDate(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return value;
  return dateOnly.format(new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
}
