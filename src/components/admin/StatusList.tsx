import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { showToast } from "../../stores/toasts";
import { Icon, iconPaths } from "./ui";

export interface StatusListTexts {
  /** Read to screen readers while the list loads, e.g. "Loading submissions…". */
  loading: string;
  /** The count line above the cards, e.g. (3, 1) → "3 submissions · 1 pending". */
  summary: (total: number, pending: number) => string;
  errorTitle: string;
  emptyTitle: string;
  emptyText: string;
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

interface StatusListProps<T extends { id: number }> {
  /** Whether a record still waits for the admin (Pending). */
  isPending: (item: T) => boolean;
  load: () => Promise<T[]>;
  /** Sends the opposite status of `item`; resolves to the updated record. */
  toggle: (item: T) => Promise<T>;
  /** Deletes `item` for good, when this list allows it. */
  remove?: (item: T) => Promise<unknown>;
  texts: StatusListTexts;
  emptyIcon: string;
  renderCard: (item: T, controls: CardControls) => ReactNode;
}

type ListState<T> = { status: "loading" } | { status: "error" } | { status: "ready"; items: T[] };

/**
 * One admin list: three placeholder cards while it loads, an error card, an empty card, or the
 * cards. It loads once (no polling, no retries) and again after each successful status change.
 */
export function StatusList<T extends { id: number }>({
  isPending,
  load,
  toggle,
  remove,
  texts,
  emptyIcon,
  renderCard,
}: StatusListProps<T>) {
  const [state, setState] = useState<ListState<T>>({ status: "loading" });
  const [pending, setPending] = useState<ReadonlySet<number>>(new Set());
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
      setState((s) => (s.status === "ready" ? { status: "ready", items: s.items.filter((i) => i.id !== item.id) } : s));
      if (texts.removed) showToast({ ...texts.removed, variant: "success" });
      setRemovals((n) => n + 1);
      return true;
    },
    [remove, texts],
  );

  useEffect(() => {
    let active = true;
    load()
      .then((items) => active && setState({ status: "ready", items }))
      .catch(() => active && setState({ status: "error" }));
    return () => {
      active = false;
    };
  }, [load]);

  const change = useCallback(
    async (item: T) => {
      setPending((ids) => new Set(ids).add(item.id));
      try {
        const updated = await toggle(item);
        setState((s) =>
          s.status === "ready"
            ? { status: "ready", items: s.items.map((i) => (i.id === updated.id ? updated : i)) }
            : s,
        );
        showToast({ ...texts.updated, variant: "success" });
        try {
          setState({ status: "ready", items: await load() });
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
    [load, toggle, texts],
  );

  if (state.status === "loading") {
    return (
      <div aria-busy="true">
        <p role="status" className="sr-only">
          {texts.loading}
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

  if (state.status === "error") {
    return (
      <Notice tone="error" icon={iconPaths.alert} title={texts.errorTitle}>
        Please make sure you have database access permissions.
      </Notice>
    );
  }

  if (state.items.length === 0) {
    return (
      <Notice tone="empty" icon={emptyIcon} title={texts.emptyTitle}>
        {texts.emptyText}
      </Notice>
    );
  }

  return (
    <>
      <p ref={summaryRef} tabIndex={-1} className="mb-4 text-sm text-muted">
        {texts.summary(state.items.length, state.items.filter(isPending).length)}
      </p>
      <ul role="list" className="grid gap-4 lg:grid-cols-2">
        {state.items.map((item) => (
          <li key={item.id} className="flex">
            {renderCard(item, {
              pending: pending.has(item.id),
              toggle: () => void change(item),
              ...(remove && { remove: () => removeItem(item) }),
            })}
          </li>
        ))}
      </ul>
    </>
  );
}

function Notice({
  tone,
  icon,
  title,
  children,
}: {
  tone: "error" | "empty";
  icon: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <div
      role={tone === "error" ? "alert" : undefined}
      className="card flex flex-col items-center px-6 py-12 text-center sm:py-16"
    >
      <span
        className={`flex size-12 items-center justify-center rounded-full ${tone === "error" ? "bg-red-50 text-red-700" : "bg-brand-50 text-brand-700"}`}
      >
        <Icon path={icon} className="size-6" />
      </span>
      <h2 className={`mt-4 text-lg font-semibold ${tone === "error" ? "text-red-800" : "text-brand-950"}`}>{title}</h2>
      <p className="mt-1.5 max-w-sm text-muted">{children}</p>
    </div>
  );
}
