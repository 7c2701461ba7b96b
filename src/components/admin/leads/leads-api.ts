/** The lead desk's calls and what it shares between its parts: the reasons, the owners, the services. */
import { createContext, useContext } from "react";
import { type EnquiryFilters, filtersToParams } from "#shared/admin-lists.ts";
import type { AdminEnquiry, LeadBoard, LostReason } from "#shared/api/enquiries.ts";
import type { CurrentUser } from "#shared/api/people.ts";
import { fill, ROUTES, withQuery } from "#shared/routes.ts";
import type { ServiceNames } from "#shared/services.ts";
import { ApiError } from "#src/lib/api-client.ts";
import { adminRequest } from "../api";
import type { AdminText } from "../copy";
import { problem } from "../ui";

export const fetchBoard = (filters: EnquiryFilters) =>
  adminRequest<LeadBoard>("GET", withQuery(ROUTES.admin.leadBoard, filtersToParams(filters)));
export const fetchLostReasons = () => adminRequest<LostReason[]>("GET", ROUTES.admin.lostReasons);
export const addLostReason = (labels: LostReason["labels"]) =>
  adminRequest<LostReason>("POST", ROUTES.admin.lostReasons, { labels });
export const changeLostReason = (id: number, change: { labels?: LostReason["labels"]; archived?: boolean }) =>
  adminRequest<LostReason>("PATCH", fill(ROUTES.admin.lostReason, { id }), change);

/** Told when the reasons changed in the editor, so the desk's Lost column offers the new list at once. */
export const LOST_REASONS_EVENT = "admin:lost-reasons";
export const announceLostReasons = (reasons: LostReason[]) =>
  window.dispatchEvent(new CustomEvent<LostReason[]>(LOST_REASONS_EVENT, { detail: reasons }));
/** The accounts a lead can be given to: the admins (GET /api/admin/users). */
export const fetchOwners = () =>
  adminRequest<CurrentUser[]>("GET", ROUTES.admin.users).then((users) => users.filter((u) => u.role === "admin"));

/** What every card of the desk reads: the reasons on offer, the admins, the service names, and what to do after a change. */
export interface Desk {
  reasons: LostReason[];
  owners: CurrentUser[];
  serviceNames: ServiceNames;
  /** After a lead changed (the counts above the tabs, the board's columns). */
  changed: (lead: AdminEnquiry) => void;
}

export const DeskContext = createContext<Desk>({
  reasons: [],
  owners: [],
  serviceNames: {} as ServiceNames,
  changed: () => {},
});
export const useDesk = () => useContext(DeskContext);

/** The sentence for a failed change: "changed by X meanwhile: reload" for a 409 leadChanged, else the panel's own. */
export function changeProblem(error: unknown, { copy, f }: AdminText): string {
  const l = copy.leads;
  if (error instanceof ApiError && error.status === 409) {
    const data = error.data as { code?: unknown; by?: unknown } | null;
    if (data?.code === "leadChanged")
      return typeof data.by === "string" && data.by
        ? f(l.changedMeanwhile, { name: data.by })
        : l.changedMeanwhileSomeone;
  }
  return problem(error, l.moveFailed);
}
