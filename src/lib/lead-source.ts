/**
 * What the enquiry form and the booking dialog send about where they were sent from: this page,
 * the visit's first touch as the tab kept it (src/lib/beacon.ts, sessionStorage, this tab only),
 * and the "How did you hear about us?" choice. Only read when the visitor sends a form.
 */
import type { LeadSourceInput } from "#shared/schemas/sources.ts";
import { type FirstTouch, VISIT_KEY } from "./beacon.ts";

export function leadSource(heard: string | null | undefined): LeadSourceInput {
  let first: Partial<FirstTouch> | null = null;
  try {
    first = JSON.parse(window.sessionStorage.getItem(VISIT_KEY) || "null") as Partial<FirstTouch> | null;
  } catch {
    first = null;
  }
  const text = (v: unknown) => (typeof v === "string" && v ? v.slice(0, 200) : null);
  return {
    page: window.location.pathname,
    landing: text(first?.landing),
    referrer: text(first?.referrer),
    utmSource: text(first?.utmSource),
    utmMedium: text(first?.utmMedium),
    utmCampaign: text(first?.utmCampaign),
    heard: heard || null,
  };
}

/** The choice of a "How did you hear about us?" select already in the page (made before its island hydrated). */
export const chosenBefore = (id: string): string =>
  typeof document === "undefined" ? "" : ((document.getElementById(id) as HTMLSelectElement | null)?.value ?? "");
