/**
 * The page's own controls, working from the first paint whatever any island is doing. Inlined into
 * every public page with the head script (see layouts/BaseLayout.astro), so it must stay
 * self-contained: no imports, no closures over module scope. Everything is delegated from the
 * document, so it also covers markup that islands render later.
 *
 * - Dropdowns (`<details data-dropdown>`) close on Escape (focus back on their summary when it was
 *   inside), on a press or focus outside them, and when one of their links is chosen.
 * - A language link (`a[data-language-switch]`) keeps the query and hash of the current page.
 * - Invoker buttons (`<button commandfor="id" command="show-modal|close">`) open and close their
 *   <dialog> in browsers that do not support invoker commands natively yet.
 */
export function controls(doc: Document, win: Window & typeof globalThis): void {
  const openDropdowns = () => Array.from(doc.querySelectorAll<HTMLDetailsElement>("details[data-dropdown][open]"));
  const closeOutside = (target: EventTarget | null) => {
    for (const dropdown of openDropdowns()) if (!dropdown.contains(target as Node)) dropdown.open = false;
  };
  doc.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    for (const dropdown of openDropdowns()) {
      const hadFocus = dropdown.contains(doc.activeElement);
      dropdown.open = false;
      if (hadFocus) dropdown.querySelector("summary")?.focus();
    }
  });
  doc.addEventListener("pointerdown", (event) => closeOutside(event.target));
  doc.addEventListener("focusin", (event) => closeOutside(event.target));
  doc.addEventListener("click", (event) => {
    const target = event.target as Element;
    if (!target || !target.closest) return;
    const link = target.closest("a");
    const dropdown = link && link.closest("details[data-dropdown]");
    if (dropdown) (dropdown as HTMLDetailsElement).open = false;

    if (link && link.hasAttribute("data-language-switch") && event.button === 0) {
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      win.location.assign(link.getAttribute("href") + win.location.search + win.location.hash);
      return;
    }

    if ("command" in win.HTMLButtonElement.prototype) return;
    const button = target.closest("button[commandfor]");
    const dialog = button && doc.getElementById(button.getAttribute("commandfor") || "");
    if (!button || !(dialog instanceof win.HTMLDialogElement)) return;
    const command = button.getAttribute("command");
    if (command === "show-modal" && !dialog.open) dialog.showModal();
    else if (command === "close" && dialog.open) dialog.close();
  });
}
