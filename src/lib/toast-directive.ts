import type { ClientDirective } from "astro";

/**
 * `client:toast`: hydrate the Toaster when the first toast is raised (the `app:toast` event from
 * stores/toasts.ts) or when the visitor presses F8 to reach the notifications region. Until then
 * the region is an empty landmark and no code is loaded for it.
 */
const toast: ClientDirective = (load, _options, el) => {
  let started = false;
  const start = async () => {
    if (started) return;
    started = true;
    window.removeEventListener("app:toast", start);
    const hydrate = await load();
    await hydrate();
  };
  window.addEventListener("app:toast", start);
  window.addEventListener("keydown", (event) => {
    if (event.key !== "F8") return;
    event.preventDefault();
    el.querySelector<HTMLElement>("[data-toast-region]")?.focus();
    void start();
  });
};

export default toast;
