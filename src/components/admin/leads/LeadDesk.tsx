/**
 * The lead desk (issue 42): every enquiry as a lead, shown as a board by stage or as the list, with
 * the list's filters (stage, owner, mine, waiting on us, overdue, service, language, dates) and
 * sorts. Standalone (its own filters) or driven by a page that keeps them in its address.
 */
import { useCallback, useEffect, useState } from "react";
import { type EnquiryFilters, filtersToParams, isFiltered } from "#shared/admin-lists.ts";
import type { AdminEnquiry, LostReason } from "#shared/api/enquiries.ts";
import type { ServiceNames } from "#shared/services.ts";
import { changeLead, deleteEnquiry, enquiryPage, exportUrl } from "../api";
import { DEFAULT_DESK_VIEW, type DeskView } from "../view-url";
import { EnquiryCard } from "../cards";
import { useCopy } from "../copy";
import { EnquiryFiltersBar } from "../ListFilters";
import { listTexts } from "../list-texts";
import { StatusList } from "../StatusList";
import { iconPaths, Segmented, useResource } from "../ui";
import { LeadBoard } from "./LeadBoard";
import { DeskContext, fetchLostReasons, fetchOwners, LOST_REASONS_EVENT } from "./leads-api";

interface Props {
  serviceNames: ServiceNames;
  /** The filters, when the page keeps them (in its address); otherwise the desk keeps its own. */
  filters?: EnquiryFilters;
  onFiltersChange?: (filters: EnquiryFilters) => void;
  /** After any lead changed (e.g. the figures above). */
  onChanged?: () => void;
  /** The board or the list, when the page keeps it (in its address: ?view=board); otherwise the desk keeps its own. */
  view?: DeskView;
  onViewChange?: (view: DeskView) => void;
}

export function LeadDesk({
  serviceNames,
  filters: given,
  onFiltersChange,
  onChanged,
  view: givenView,
  onViewChange,
}: Props) {
  const text = useCopy();
  const l = text.copy.leads;
  const [own, setOwn] = useState<EnquiryFilters>({});
  const filters = given ?? own;
  const setFilters = onFiltersChange ?? setOwn;
  const [ownView, setOwnView] = useState<DeskView>(DEFAULT_DESK_VIEW);
  const view = onViewChange ? (givenView ?? DEFAULT_DESK_VIEW) : ownView;
  const setView = onViewChange ?? setOwnView;
  const reasons = useResource(fetchLostReasons);
  const owners = useResource(fetchOwners);
  // The reasons' editor on the same page (LostReasons) tells the desk the new list.
  const setReasons = reasons.set;
  useEffect(() => {
    const update = (event: Event) => setReasons((event as CustomEvent<LostReason[]>).detail);
    window.addEventListener(LOST_REASONS_EVENT, update);
    return () => window.removeEventListener(LOST_REASONS_EVENT, update);
  }, [setReasons]);
  const changed = useCallback(() => onChanged?.(), [onChanged]);
  const loadPage = useCallback((next: string | null) => enquiryPage(filters, next), [filters]);
  const counting = useCallback(
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
      async (...args: A) => {
        const result = await fn(...args);
        changed();
        return result;
      },
    [changed],
  );

  return (
    <DeskContext.Provider value={{ reasons: reasons.data ?? [], owners: owners.data ?? [], serviceNames, changed }}>
      <Segmented
        label={l.views}
        value={view}
        options={[
          { value: "board", label: l.board },
          { value: "list", label: l.list },
        ]}
        onChange={setView}
      />
      <EnquiryFiltersBar
        filters={filters}
        onChange={setFilters}
        exportHref={exportUrl("submissions", filters)}
        serviceNames={serviceNames}
        owners={owners.data ?? []}
      />
      {view === "board" ? (
        <LeadBoard key={filtersToParams(filters).toString()} filters={filters} />
      ) : (
        <StatusList
          key={filtersToParams(filters).toString()}
          isPending={(item: AdminEnquiry) => item.stage === "new"}
          loadPage={loadPage}
          filtered={isFiltered(filters)}
          toggle={counting((item: AdminEnquiry) =>
            changeLead(item, { stage: item.stage === "new" ? "replied" : "new" }),
          )}
          remove={counting((item: AdminEnquiry) => deleteEnquiry(item.id))}
          texts={listTexts(text, "enquiries")}
          emptyIcon={iconPaths.inbox}
          renderCard={(item, controls, replace) => (
            <EnquiryCard item={item} controls={controls} replace={replace} serviceNames={serviceNames} />
          )}
        />
      )}
    </DeskContext.Provider>
  );
}
