import { useEffect, type RefObject } from "react";

/**
 * For an island's `<form data-keep-submit>`: marks the form as handled by the island from now on,
 * and sends a submit the visitor made before the island ran (kept by the page's controls script,
 * lib/controls.ts) through the island's own handler. Call it after the effects that prepare the
 * form (such as turning off the browser's own validation).
 */
export function useKeptSubmit(form: RefObject<HTMLFormElement | null>): void {
  useEffect(() => {
    const element = form.current;
    if (!element) return;
    element.setAttribute("data-ready", "");
    if (!element.hasAttribute("data-submit-pending")) return;
    element.removeAttribute("data-submit-pending");
    element.requestSubmit();
  }, [form]);
}
