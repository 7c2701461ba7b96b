import { useEffect, type RefObject } from "react";

/**
 * Closes a native <details> dropdown on an outside click, on Escape (returning focus to its
 * summary), when focus leaves it, and when one of its links is chosen. The <details> stays the
 * source of truth, so a click made before hydration is never lost or contradicted.
 */
export function useDismiss(ref: RefObject<HTMLDetailsElement | null>) {
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const close = () => {
      el.open = false;
    };
    const onPointerDown = (e: PointerEvent) => {
      if (el.open && !el.contains(e.target as Node)) close();
    };
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.key === "Escape" && el.open) {
        close();
        el.querySelector("summary")?.focus();
      }
    };
    const onFocusOut = (e: FocusEvent) => {
      const next = e.relatedTarget as Node | null;
      if (el.open && next && !el.contains(next)) close();
    };
    const onClick = (e: MouseEvent) => {
      if ((e.target as Element).closest("a")) close();
    };
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    el.addEventListener("focusout", onFocusOut);
    el.addEventListener("click", onClick);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
      el.removeEventListener("focusout", onFocusOut);
      el.removeEventListener("click", onClick);
    };
  }, [ref]);
}
