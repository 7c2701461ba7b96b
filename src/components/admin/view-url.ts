/**
 * A list's view in its own address: the search, filters and sort of the enquiries (/admin/leads) or
 * the meetings (/admin/meetings), in the API's own parameters (src/shared/admin-lists.ts), and the
 * lead desk's board or list (`view=board`; the list is the default and needs nothing). A view
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

/** How the lead desk shows the leads. */
export const DESK_VIEWS = ["list", "board"] as const;
export type DeskView = (typeof DESK_VIEWS)[number];
/** The desk's view when the address names none. */
export const DEFAULT_DESK_VIEW: DeskView = "list";

export type View =
  { tab: "enquiries"; filters: EnquiryFilters; desk?: DeskView } | { tab: "meetings"; filters: MeetingFilters };

/** Where each list lives. */
export const LIST_PATHS: Record<TabKey, string> = ADMIN_LIST_PATHS;

/** The view of `tab` an address names; anything it cannot read is left out (no filters). */
export function readView(search: string, tab: TabKey): View {
  const params = new URLSearchParams(search);
  if (tab === "meetings") return { tab, filters: parseMeetingFilters(params).filters };
  const desk = DESK_VIEWS.find((v) => v !== DEFAULT_DESK_VIEW && v === params.get("view"));
  return { tab, filters: parseEnquiryFilters(params).filters, ...(desk && { desk }) };
}

/** The query string of a view ("" unfiltered); the page names the list. */
export function viewSearch(view: View): string {
  const params = filtersToParams(view.filters);
  if (view.tab === "enquiries" && view.desk && view.desk !== DEFAULT_DESK_VIEW) params.set("view", view.desk);
  const query = params.toString();
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
