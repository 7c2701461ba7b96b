import type { ClientDirective } from "astro";

const EARLY = ["pointerover", "pointerdown", "touchstart", "focusin"] as const;

/**
 * `client:dialog`: for an island that fills a static <dialog>, which opens without it (an invoker
 * button). The island's code is fetched ahead of need: in idle time once the section that holds
 * the dialog comes within a screen of the viewport, or as soon as the visitor points at, touches or
 * focuses a button that opens it. It hydrates when its code is there (in idle time), or at once if the dialog is open.
 * Until then the dialog shows the island's server-rendered shell, with its loading state.
 */
const dialogDirective: ClientDirective = (load, _options, el) => {
  const dialog = el.closest("dialog");
  const idle = (run: () => void) =>
    "requestIdleCallback" in window ? requestIdleCallback(run, { timeout: 1500 }) : setTimeout(run, 200);
  let code: ReturnType<typeof load> | null = null;
  let hydrated = false;
  const fetchCode = () => (code ??= load());
  const hydrate = async () => {
    if (hydrated) return;
    hydrated = true;
    near.disconnect();
    opened.disconnect();
    await (
      await fetchCode()
    )();
  };
  const early = () => void fetchCode().then(() => idle(() => void hydrate()));

  const triggers = dialog ? Array.from(document.querySelectorAll(`[commandfor="${dialog.id}"]`)) : [];
  const near = new IntersectionObserver(
    (entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        near.disconnect();
        idle(early);
      }
    },
    { rootMargin: "100% 0px" },
  );
  const opened = new MutationObserver(() => dialog?.open && void hydrate());
  near.observe(dialog?.parentElement ?? el);
  for (const trigger of triggers) {
    for (const type of EARLY) trigger.addEventListener(type, early, { once: true, passive: true });
  }
  if (!dialog || dialog.open) void hydrate();
  else opened.observe(dialog, { attributes: true, attributeFilter: ["open"] });
};

export default dialogDirective;
