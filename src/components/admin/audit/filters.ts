/** The audit record's filters in the page address (/admin/audit?action=export&from=…), so a view can be shared. */
import { isCalendarDate } from "#shared/dates.ts";
import { AUDIT_ACTIONS, type AuditAction, type AuditQuery } from "#shared/schemas/security.ts";

export type AuditFilters = Omit<AuditQuery, "before">;

const isAction = (value: string): value is AuditAction => (AUDIT_ACTIONS as readonly string[]).includes(value);

/** The filters a query string names; anything the API would refuse is left out. */
export function readFilters(search: string): AuditFilters {
  const params = new URLSearchParams(search);
  const filters: AuditFilters = {};
  const action = params.get("action") ?? "";
  if (isAction(action)) filters.action = action;
  const actor = (params.get("actor") ?? "").trim();
  if (actor && actor.length <= 100) filters.actor = actor;
  for (const key of ["from", "to"] as const) {
    const day = params.get(key) ?? "";
    if (isCalendarDate(day)) filters[key] = day;
  }
  return filters;
}

/** The query string of the filters ("" when none), in a fixed order. */
export function filtersQuery(filters: AuditFilters): string {
  const params = new URLSearchParams();
  for (const key of ["action", "actor", "from", "to"] as const) {
    const value = filters[key]?.trim();
    if (value) params.set(key, value);
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}
