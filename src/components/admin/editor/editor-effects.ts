/** The content editor's effects that stand apart from its texts: publishing's progress, leaving, finding. */
import { useEffect, useMemo, type RefObject } from "react";
import type { ContentAnswer, PublishStatus } from "#shared/api/content.ts";
import { fetchPublishStatus } from "../api";
import { search, type Drafts } from "./model";

/** While `npm start` rebuilds the site, asks how it went until it is done. */
export function usePublishProgress(status: PublishStatus | null, setStatus: (status: PublishStatus) => void) {
  useEffect(() => {
    if (status?.state !== "building") return;
    const timer = setInterval(() => {
      fetchPublishStatus()
        .then((answer) => setStatus(answer.publish))
        .catch(() => {});
    }, 1500);
    return () => clearInterval(timer);
  }, [status?.state]);
}

/** Leaving the page (a link, a reload, closing the tab) with unsaved changes asks first, unless `leaving` says the editor chose to. */
export function useLeaveWarning(unsaved: boolean, leaving: RefObject<boolean>) {
  useEffect(() => {
    if (!unsaved) return;
    const warn = (event: BeforeUnloadEvent) => {
      if (leaving.current) return;
      event.preventDefault();
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [unsaved]);
}

/** The keys a search (by words, drafts included) or the review filter finds. */
export function useFound(data: ContentAnswer | null, drafts: Drafts, query: string, onlyReview: boolean) {
  const searching = query.trim() !== "" || onlyReview;
  const found = useMemo(() => {
    if (!data || !searching) return [];
    const reviewKeys = new Set(data.reviews.map((r) => r.key));
    const keys = query.trim() ? search(data, drafts, query) : [...reviewKeys];
    return keys.filter((key) => !onlyReview || reviewKeys.has(key));
  }, [data, drafts, query, onlyReview, searching]);
  return { searching, found };
}
