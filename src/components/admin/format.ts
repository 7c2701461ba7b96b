/** How the dashboard shows dates, times and services (spec section 2, admin routes). */

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

const SERVICE_LABELS: Record<string, string> = {
  "startup-visa": "Startup Visa",
  "business-launchpad": "Business Launchpad",
  "startup-studio": "Startup Studio",
  other: "Other Services",
};

/** The display label of a service id; an unknown value is shown as it is. */
export const serviceLabel = (service: string): string =>
  Object.hasOwn(SERVICE_LABELS, service) ? SERVICE_LABELS[service] : service;
