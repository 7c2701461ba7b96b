/**
 * Notifications shared by every island: one toast at a time, raised with
 * `showToast`. The Toaster island hydrates on the first toast (see lib/toast-directive.ts).
 */
import { atom } from "nanostores";

export type ToastVariant = "default" | "success" | "destructive";

export interface Toast {
  id: number;
  title: string;
  description?: string;
  variant: ToastVariant;
}

export const TOAST_DURATION_MS = 5000;
/** Event that wakes the Toaster island the first time a toast is raised. */
export const TOAST_EVENT = "app:toast";

export const $toast = atom<Toast | null>(null);

let nextId = 1;

/** Shows a toast, replacing any toast on screen. */
export function showToast(toast: { title: string; description?: string; variant?: ToastVariant }): void {
  $toast.set({ id: nextId++, variant: "default", ...toast });
  if (typeof window !== "undefined") window.dispatchEvent(new Event(TOAST_EVENT));
}

export function dismissToast(id?: number): void {
  if (id === undefined || $toast.get()?.id === id) $toast.set(null);
}
