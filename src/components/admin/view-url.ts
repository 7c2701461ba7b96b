/**
 * The dashboard's view in its own address: the tab and that tab's search, filters and sort, in the
 * API's own parameters (src/shared/admin-lists.ts). A view can be bookmarked or shared, and Back
 * and Forward step through the views the admin chose.
 */
import {
  type EnquiryFilters,
  filtersToParams,
  type MeetingFilters,
  parseEnquiryFilters,
  parseMeetingFilters,
} from "#shared/admin-lists.ts";

export const TAB_KEYS = ["enquiries", "meetings"] as const;
export type TabKey = (typeof TAB_KEYS)[number];

export type View = { tab: "enquiries"; filters: EnquiryFilters } | { tab: "meetings"; filters: MeetingFilters };

/** The view an address names; anything it cannot read is left out (the default tab, no filters). */
export function readView(search: string): View {
  const params = new URLSearchParams(search);
  return params.get("tab") === "meetings"
    ? { tab: "meetings", filters: parseMeetingFilters(params).filters }
    : { tab: "enquiries", filters: parseEnquiryFilters(params).filters };
}

/** The query string of a view ("" for the default: contact submissions, unfiltered). */
export function viewSearch(view: View): string {
  const params = filtersToParams(view.filters);
  if (view.tab === "meetings") {
    const withTab = new URLSearchParams({ tab: "meetings" });
    params.forEach((value, key) => withTab.append(key, value));
    return `?${withTab}`;
  }
  const query = params.toString();
  return query ? `?${query}` : "";
}
