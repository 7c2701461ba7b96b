/**
 * The service catalogue: the values a visitor chooses from in the enquiry form.
 * The ids are here, once; their names are only in the locale files (`services.names.<id>`), which
 * the site, the admin and the emails all read. The three service pages are in src/data/services.ts.
 */

export const SERVICE_IDS = ["startup-visa", "business-launchpad", "startup-studio", "other"] as const;
export type ServiceId = (typeof SERVICE_IDS)[number];

/** The services a consultant can take and a visitor can book ("other" is an enquiry's answer, not a service). */
export const BOOKABLE_SERVICES = SERVICE_IDS.filter((s) => s !== "other") as [ServiceId, ...ServiceId[]];

/** The names of the catalogue in one language, as read from its locale file. */
export type ServiceNames = Record<ServiceId, string>;

export const isServiceId = (value: unknown): value is ServiceId =>
  typeof value === "string" && (SERVICE_IDS as readonly string[]).includes(value);

/** The locale key of a service's name. */
export const serviceNameKey = (id: ServiceId) => `services.names.${id}` as const;

/**
 * What to show for a stored service value. The API accepts any non-empty service,
 * so a value outside the catalogue (an old form, a direct API call) is shown as it is, never dropped.
 */
export function serviceDisplayName(value: string, names: ServiceNames): string {
  return isServiceId(value) ? names[value] : value;
}
