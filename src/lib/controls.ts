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
 * - A form an island takes over (`<form data-keep-submit>`), sent before the island has run: the
 *   submit is kept (`data-submit-pending`) for the island to handle when it runs (lib/kept-submit.ts),
 *   with its own field messages and one request. An island that has run marks its form
 *   `data-ready`. If it has not run within `keepSubmitMs`, the form is sent as without JavaScript.
 */
export function controls(doc: Document, win: Window & typeof globalThis): void {
  const keepSubmitMs = 10000;
  const waitingForm = (target: EventTarget | null) => {
    const element = target as Element | null;
    return element && element.closest
      ? element.closest<HTMLFormElement>("form[data-keep-submit]:not([data-ready])")
      : null;
  };
  const keepSubmit = (event: Event) => {
    const form = waitingForm(event.target);
    if (!form) return;
    event.preventDefault();
    if (form.hasAttribute("data-submit-pending")) return;
    form.setAttribute("data-submit-pending", "");
    win.setTimeout(() => {
      if (!form.hasAttribute("data-submit-pending") || form.hasAttribute("data-ready")) return;
      form.removeAttribute("data-submit-pending");
      win.HTMLFormElement.prototype.submit.call(form);
    }, keepSubmitMs);
  };
  doc.addEventListener("submit", keepSubmit);
  // The browser's own check of a field (required, type=email) stops a submit before its event: that
  // attempt is kept too, so the island shows its message in the page's language.
  doc.addEventListener("invalid", keepSubmit, true);
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
