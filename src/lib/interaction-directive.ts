import type { ClientDirective } from "astro";

const events = ["pointerover", "pointerdown", "touchstart", "focusin", "keydown"] as const;

/**
 * `client:interaction`: hydrate when the visitor first points at, touches, focuses or types
 * inside the island. Its server-rendered HTML already works (real links, native <details>),
 * so nothing is lost before React arrives, and no React is downloaded for visitors who only read.
 */
const interaction: ClientDirective = (load, _options, el) => {
  let done = false;
  const start = async () => {
    if (done) return;
    done = true;
    for (const type of events) el.removeEventListener(type, start);
    const hydrate = await load();
    await hydrate();
  };
  for (const type of events) el.addEventListener(type, start, { passive: true, once: true });
};

export default interaction;
