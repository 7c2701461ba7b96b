/** The panel's consultants, loaded once per page (GET /api/admin/consultants): the Meetings filter and hand-over read them. */
import { atom } from "nanostores";
import type { AdminConsultant } from "#shared/api/consultants.ts";
import { ROUTES } from "#shared/routes.ts";
import { adminRequest } from "../api";

export const $consultants = atom<AdminConsultant[] | undefined>(undefined);

/** Loads the consultants into $consultants (an empty list when they cannot be read: the page works without). */
export async function loadConsultants(): Promise<AdminConsultant[]> {
  const list = await adminRequest<AdminConsultant[]>("GET", ROUTES.admin.consultants).catch(() => []);
  $consultants.set(list);
  return list;
}
