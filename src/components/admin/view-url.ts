/**
 * A list's view in its own address: the search, filters and sort of the enquiries (/admin/leads) or
 * the meetings (/admin/meetings), in the API's own parameters (src/shared/admin-lists.ts). A view
 * can be bookmarked or shared, and Back and Forward step through the views the admin chose. The
 * dashboard before them held both lists in tabs at /admin/submissions (`?tab=meetings`): those
 * addresses still open the right page with their filters (legacyListAddress).
 */
import {
  ADMIN_LIST_PATHS,
  type EnquiryFilters,
  filtersToParams,
  type MeetingFilters,
  parseEnquiryFilters,
  parseMeetingFilters,
} from "#shared/admin-lists.ts";

export const TAB_KEYS = ["enquiries", "meetings"] as const;
export type TabKey = (typeof TAB_KEYS)[number];

export type View = { tab: "enquiries"; filters: EnquiryFilters } | { tab: "meetings"; filters: MeetingFilters };

/** Where each list lives. */
export const LIST_PATHS: Record<TabKey, string> = ADMIN_LIST_PATHS;

/** The view of `tab` an address names; anything it cannot read is left out (no filters). */
export function readView(search: string, tab: TabKey): View {
  const params = new URLSearchParams(search);
  return tab === "meetings"
    ? { tab, filters: parseMeetingFilters(params).filters }
    : { tab, filters: parseEnquiryFilters(params).filters };
}

/** The query string of a view ("" unfiltered); the page names the list. */
export function viewSearch(view: View): string {
  const query = filtersToParams(view.filters).toString();
  return query ? `?${query}` : "";
}

/**
 * Where an old dashboard address (/admin/submissions?tab=…&q=…, or /admin/?…) leads now: the page
 * of its tab, with every other parameter as it was (the list reads what it knows).
 */
export function legacyListAddress(search: string): string {
  const params = new URLSearchParams(search);
  const tab: TabKey = params.get("tab") === "meetings" ? "meetings" : "enquiries";
  params.delete("tab");
  const query = params.toString();
  return `${LIST_PATHS[tab]}${query ? `?${query}` : ""}`;
}
