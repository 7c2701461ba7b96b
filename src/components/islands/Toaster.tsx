import { useEffect, useRef, type PointerEvent } from "react";
import { useStore } from "@nanostores/react";
import { $toast, dismissToast, TOAST_DURATION_MS } from "#src/stores/toasts.ts";
import { StrokeIcon } from "../ui/StrokeIcon";
import { useHydrated } from "#src/lib/use-hydrated.ts";

export interface ToasterProps {
  /** Name of the region, e.g. "Notifications (F8)". */
  label: string;
  closeLabel: string;
}

const SWIPE_DISMISS_PX = 50;

const tone = {
  default: "border-line bg-white text-ink",
  success: "border-teal-600/30 bg-white text-ink",
  destructive: "border-red-700 bg-red-700 text-white",
} as const;

/**
 * The notifications region: one toast at a time, gone after 5 s, dismissed by a 50 px swipe to
 * the right or its close button, announced politely (errors assertively). F8 focuses the region.
 */
export default function Toaster({ label, closeLabel }: ToasterProps) {
  // The island hydrates on the first toast (client:toast), so the store already holds it: rendered
  // during hydration it would differ from the server's empty region (React's error #418). It shows
  // from the first render after hydration instead.
  const hydrated = useHydrated();
  const stored = useStore($toast);
  const toast = hydrated ? stored : null;
  const regionRef = useRef<HTMLElement>(null);
  const itemRef = useRef<HTMLDivElement>(null);
  const startX = useRef<number | null>(null);

  useEffect(() => {
    if (!toast) return;
    const timer = window.setTimeout(() => dismissToast(toast.id), TOAST_DURATION_MS);
    return () => window.clearTimeout(timer);
  }, [toast]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "F8") {
        e.preventDefault();
        regionRef.current?.focus();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const onPointerDown = (e: PointerEvent) => {
    startX.current = e.clientX;
    // Keep receiving the drag even when the pointer leaves the toast.
    if (!(e.target as Element).closest("button")) e.currentTarget.setPointerCapture?.(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent) => {
    if (startX.current === null || !itemRef.current) return;
    const dx = Math.max(0, e.clientX - startX.current);
    itemRef.current.style.transform = `translateX(${dx}px)`;
  };
  const onPointerUp = (e: PointerEvent) => {
    if (startX.current === null) return;
    const dx = e.clientX - startX.current;
    startX.current = null;
    if (itemRef.current) itemRef.current.style.transform = "";
    if (dx > SWIPE_DISMISS_PX && toast) dismissToast(toast.id);
  };

  return (
    <section
      ref={regionRef}
      data-toast-region
      tabIndex={-1}
      aria-label={label}
      className="pointer-events-none fixed inset-x-0 bottom-0 z-[80] flex justify-center p-4 outline-none sm:inset-x-auto sm:end-0 sm:justify-end"
    >
      <div
        className="w-full max-w-sm"
        aria-live={toast?.variant === "destructive" ? "assertive" : "polite"}
        aria-atomic="true"
      >
        {toast && (
          <div
            key={toast.id}
            ref={itemRef}
            role={toast.variant === "destructive" ? "alert" : "status"}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            onPointerCancel={() => (startX.current = null)}
            data-variant={toast.variant}
            className={`pointer-events-auto flex touch-pan-y select-none items-start gap-3 rounded-2xl border p-4 shadow-lift transition-transform ${tone[toast.variant]}`}
          >
            <div className="min-w-0 flex-1">
              <p className="font-semibold">{toast.title}</p>
              {toast.description && (
                <p className={`mt-1 text-sm ${toast.variant === "destructive" ? "text-white" : "text-muted"}`}>
                  {toast.description}
                </p>
              )}
            </div>
            <button
              type="button"
              onClick={() => dismissToast(toast.id)}
              aria-label={closeLabel}
              className="-m-1 flex size-9 shrink-0 items-center justify-center rounded-lg opacity-80 hover:opacity-100"
            >
              <StrokeIcon name="close" className="size-4" />
            </button>
          </div>
        )}
      </div>
    </section>
  );
}
