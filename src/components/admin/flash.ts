/**
 * A toast that survives one page change: the login page raises "Login successful" and then loads
 * the dashboard, which would otherwise wipe it before anyone could read it.
 */
import { showToast } from "#src/stores/toasts.ts";

type FlashToast = Parameters<typeof showToast>[0];

const KEY = "admin-flash-toast";

/** Shows the toast now and keeps it for the next page. */
export function showToastAcrossNavigation(toast: FlashToast): void {
  showToast(toast);
  try {
    sessionStorage.setItem(KEY, JSON.stringify(toast));
  } catch {
    // Storage blocked: the toast is only shown on this page.
  }
}

/** Shows (once) the toast the previous page left, if any. */
export function showFlashToast(): void {
  let saved: string | null = null;
  try {
    saved = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
  } catch {
    return;
  }
  if (!saved) return;
  try {
    const toast = JSON.parse(saved) as FlashToast;
    if (toast && typeof toast.title === "string") showToast(toast);
  } catch {
    // A damaged entry is dropped.
  }
}
