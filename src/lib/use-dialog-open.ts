import { useCallback, useSyncExternalStore } from "react";

/**
 * Whether the native <dialog> `dialogId` is open, whoever opened it (an invoker button without
 * script, or code): the dialog's `open` attribute is the source of truth. False on the server.
 */
export function useDialogOpen(dialogId: string) {
  const dialog = useCallback(() => document.getElementById(dialogId) as HTMLDialogElement | null, [dialogId]);
  const watchOpen = useCallback(
    (changed: () => void) => {
      const observer = new MutationObserver(changed);
      const element = dialog();
      if (element) observer.observe(element, { attributes: true, attributeFilter: ["open"] });
      return () => observer.disconnect();
    },
    [dialog],
  );
  const open = useSyncExternalStore(
    watchOpen,
    () => dialog()?.open ?? false,
    () => false,
  );
  return { open, dialog };
}
