import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { showToast } from "#src/stores/toasts.ts";
import type { ListPage } from "./api";
import { useCopy } from "./copy";
import { EmptyState, iconPaths, Spinner } from "./ui";

export interface StatusListTexts {
  /** Read to screen readers while the list loads, e.g. "Loading submissions…". */
  loading: string;
  /**
   * The count line above the cards, e.g. (3, 1, false) → "3 submissions · 1 pending"; `more` when
   * further pages wait, so the counts are of the loaded records only.
   */
  summary: (total: number, pending: number, more: boolean) => string;
  errorTitle: string;
  emptyTitle: string;
  emptyText: string;
  /** The empty card's text when a search or filter is on. */
  emptyFilteredText: string;
  /** The button that loads the next page, e.g. "Load more submissions". */
  loadMore: string;
  updated: { title: string; description: string };
  failed: { title: string; description: string };
  /** Toasts of a delete, for lists whose records can be deleted. */
  removed?: { title: string; description: string };
  removeFailed?: { title: string; description: string };
}

export interface CardControls {
  /** True while this card's change is being sent and the list reloaded. */
  pending: boolean;
  toggle: () => void;
  /** Deletes the record (after the card's confirm step); resolves false when it failed. Absent when records cannot be deleted. */
  remove?: () => Promise<boolean>;
}

/** What a card may do to its own record in the list (a saved note, say) without reloading the list. */
export type ReplaceItem<T> = (item: T) => void;

interface StatusListProps<T extends { id: number }> {
  /** Whether a record still waits for the admin (Pending). */
  isPending: (item: T) => boolean;
  /** The first page (null) or the page a previous one named. */
  loadPage: (next: string | null) => Promise<ListPage<T>>;
  /** Whether a search or filter narrows the list (changes the empty card's text). */
  filtered: boolean;
  /** Sends the opposite status of `item`; resolves to the updated record. */
  toggle: (item: T) => Promise<T>;
  /** Deletes `item` for good, when this list allows it. */
  remove?: (item: T) => Promise<unknown>;
  texts: StatusListTexts;
  emptyIcon: string;
  renderCard: (item: T, controls: CardControls, replace: ReplaceItem<T>) => ReactNode;
}

type ListState<T> =
  | { status: "loading" }
  | { status: "error" }
  | { status: "ready"; items: T[]; next: string | null; more: "idle" | "loading" | "failed" };

/** Loads pages from the first until at least `count` records are in (the reload after a change keeps what was shown). */
async function loadAtLeast<T>(loadPage: (next: string | null) => Promise<ListPage<T>>, count: number) {
  const items: T[] = [];
  let next: string | null = null;
  do {
    const page: ListPage<T> = await loadPage(next);
    items.push(...page.items);
    next = page.next;
  } while (next && items.length < count);
  return { items, next };
}

/**
 * One admin list: three placeholder cards while it loads, an error card, an empty card, or the
 * cards, a page at a time: the next page loads as the admin scrolls near the end, or with the
 * "Load more" button (keyboard users, or a browser without IntersectionObserver). It loads when
 * shown (no polling, no retries) and again after each successful status change. Give it a `key`
 * that changes with its filters: a new filter starts a new list.
 */
export function StatusList<T extends { id: number }>({
  isPending,
  loadPage,
  filtered,
  toggle,
  remove,
  texts,
  emptyIcon,
  renderCard,
}: StatusListProps<T>) {
  const { copy } = useCopy();
  const [state, setState] = useState<ListState<T>>({ status: "loading" });
  const [pending, setPending] = useState<ReadonlySet<number>>(new Set());
  const sentinel = useRef<HTMLDivElement>(null);
  // After a delete, focus goes to the count line above the cards (the card itself is gone).
  const summaryRef = useRef<HTMLParagraphElement>(null);
  const [removals, setRemovals] = useState(0);
  useEffect(() => {
    if (removals) summaryRef.current?.focus();
  }, [removals]);

  const removeItem = useCallback(
    async (item: T): Promise<boolean> => {
      if (!remove) return false;
      try {
        await remove(item);
      } catch {
        if (texts.removeFailed) showToast({ ...texts.removeFailed, variant: "destructive" });
        return false;
      }
      setState((s) => (s.status === "ready" ? { ...s, items: s.items.filter((i) => i.id !== item.id) } : s));
      if (texts.removed) showToast({ ...texts.removed, variant: "success" });
      setRemovals((n) => n + 1);
      return true;
    },
    [remove, texts],
  );

  useEffect(() => {
    let active = true;
    loadPage(null)
      .then((page) => active && setState({ status: "ready", ...page, more: "idle" }))
      .catch(() => active && setState({ status: "error" }));
    return () => {
      active = false;
    };
  }, [loadPage]);

  const next = state.status === "ready" && state.more !== "loading" ? state.next : null;
  const loadMore = useCallback(async () => {
    if (!next) return;
    setState((s) => (s.status === "ready" ? { ...s, more: "loading" } : s));
    try {
      const page = await loadPage(next);
      setState((s) =>
        s.status === "ready" && s.next === next
          ? {
              status: "ready",
              // A record changed between two pages cannot appear twice: keep the first copy.
              items: [...s.items, ...page.items.filter((item) => !s.items.some((i) => i.id === item.id))],
              next: page.next,
              more: "idle",
            }
          : s,
      );
    } catch {
      setState((s) => (s.status === "ready" ? { ...s, more: "failed" } : s));
    }
  }, [loadPage, next]);

  // Scrolling near the end loads the next page (not after a failure: the button retries then).
  const autoLoad = state.status === "ready" && state.more === "idle" && Boolean(next);
  useEffect(() => {
    const target = sentinel.current;
    if (!autoLoad || !target || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && void loadMore(), {
      rootMargin: "600px 0px",
    });
    observer.observe(target);
    return () => observer.disconnect();
  }, [autoLoad, loadMore]);

  const replace = useCallback<ReplaceItem<T>>(
    (updated) =>
      setState((s) =>
        s.status === "ready" ? { ...s, items: s.items.map((i) => (i.id === updated.id ? updated : i)) } : s,
      ),
    [],
  );

  const change = useCallback(
    async (item: T) => {
      setPending((ids) => new Set(ids).add(item.id));
      try {
        const updated = await toggle(item);
        replace(updated);
        showToast({ ...texts.updated, variant: "success" });
        try {
          const shown = state.status === "ready" ? state.items.length : 0;
          setState({ status: "ready", ...(await loadAtLeast(loadPage, shown)), more: "idle" });
        } catch {
          // The change is saved and already shown; a failed reload keeps the list as it is.
        }
      } catch {
        showToast({ ...texts.failed, variant: "destructive" });
      } finally {
        setPending((ids) => {
          const next = new Set(ids);
          next.delete(item.id);
          return next;
        });
      }
    },
    [loadPage, toggle, texts, replace, state],
  );

  if (state.status === "loading") return <ListPlaceholder label={texts.loading} />;

  if (state.status === "error") {
    return (
      <EmptyState tone="error" icon={iconPaths.alert} title={texts.errorTitle}>
        {copy.dashboard.errorText}
      </EmptyState>
    );
  }

  if (state.items.length === 0) {
    return (
      <EmptyState icon={emptyIcon} title={texts.emptyTitle}>
        {filtered ? texts.emptyFilteredText : texts.emptyText}
      </EmptyState>
    );
  }

  return (
    <>
      <p ref={summaryRef} tabIndex={-1} className="mb-4 text-sm text-muted" aria-live="polite">
        {texts.summary(state.items.length, state.items.filter(isPending).length, Boolean(state.next))}
      </p>
      <ul role="list" className="grid gap-4 lg:grid-cols-2">
        {state.items.map((item) => (
          <li key={item.id} className="flex">
            {renderCard(
              item,
              {
                pending: pending.has(item.id),
                toggle: () => void change(item),
                ...(remove && { remove: () => removeItem(item) }),
              },
              replace,
            )}
          </li>
        ))}
      </ul>
      <div ref={sentinel} className="mt-6 flex flex-col items-center gap-2">
        {state.more === "failed" && (
          <p role="alert" className="text-sm font-medium text-red-800">
            {copy.dashboard.loadMoreFailed}
          </p>
        )}
        {state.next && (
          <button
            type="button"
            onClick={() => void loadMore()}
            disabled={state.more === "loading"}
            className="btn btn-secondary min-w-48 disabled:cursor-not-allowed disabled:opacity-70"
          >
            {state.more === "loading" ? <Spinner className="size-4" /> : null}
            {state.more === "loading" ? copy.dashboard.loadingMore : texts.loadMore}
          </button>
        )}
      </div>
    </>
  );
}

/** Three placeholder cards while a list loads, and the words a screen reader hears. */
function ListPlaceholder({ label }: { label: string }) {
  return (
    <div aria-busy="true">
      <p role="status" className="sr-only">
        {label}
      </p>
      <ul role="list" className="grid gap-4 lg:grid-cols-2" aria-hidden="true">
        {[0, 1, 2].map((i) => (
          <li
            key={i}
            data-testid="placeholder-card"
            className="card animate-pulse p-5 motion-reduce:animate-none sm:p-6"
          >
            <div className="flex items-start justify-between gap-4">
              <div className="flex-1 space-y-2.5">
                <div className="h-5 w-2/5 rounded-md bg-slate-200" />
                <div className="h-4 w-3/5 rounded-md bg-slate-100" />
              </div>
              <div className="h-6 w-20 rounded-full bg-slate-100" />
            </div>
            <div className="mt-6 grid gap-4 sm:grid-cols-2">
              <div className="h-10 rounded-md bg-slate-100" />
              <div className="h-10 rounded-md bg-slate-100" />
            </div>
            <div className="mt-4 h-14 rounded-md bg-slate-100" />
            <div className="mt-5 flex items-center justify-between border-t border-line pt-4">
              <div className="h-4 w-2/5 rounded-md bg-slate-100" />
              <div className="h-11 w-36 rounded-xl bg-slate-200" />
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
