/** A list's words, from the admin texts of the dashboard (the enquiries' and the meetings'). */
import type { AdminText } from "./copy";
import type { StatusListTexts } from "./StatusList";

/** A list's words, from the admin texts of the dashboard. */
export function listTexts({ copy, f, p }: AdminText, kind: "enquiries" | "meetings"): StatusListTexts {
  const c = copy.dashboard[kind];
  const toast = (title: string, description: string) => ({ title, description });
  return {
    loading: c.loading,
    summary: (total, pending, more) =>
      [
        `${p(c.count, total)}${more ? ` ${copy.dashboard.loaded}` : ""}`,
        f(copy.dashboard.pending, { count: pending }),
        ...(more ? [copy.dashboard.moreBelow] : []),
      ].join(" · "),
    errorTitle: c.errorTitle,
    emptyTitle: c.emptyTitle,
    emptyText: c.emptyText,
    emptyFilteredText: c.emptyFilteredText,
    loadMore: c.loadMore,
    updated: toast(c.updated, c.updatedText),
    failed: toast(c.failed, c.failedText),
    ...("removed" in c && {
      removed: toast(c.removed, c.removedText),
      removeFailed: toast(c.removeFailed, c.removeFailedText),
    }),
  };
}
