/** On arrival with a hash, scroll smoothly to that id, 80 px below the top, after 100 ms. */
export const ANCHOR_OFFSET = 80;
export const ANCHOR_DELAY = 100;
/**
 * The class that lays every section out (src/styles/global.css): the sections after the first are
 * laid out only as they near the viewport, and until then hold a guessed height, so a position
 * measured or scrolled to across them would be off by the difference.
 */
export const WHOLE_PAGE = "whole-page";

/** Lays the whole page out, once: before anything measures or scrolls to an in-page target. */
const layOutWholePage = () => document.documentElement.classList.add(WHOLE_PAGE);

export function scrollToHashOnArrival(): void {
  // A click on an in-page link: the class is set before the browser scrolls to its target.
  document.addEventListener(
    "click",
    (event) => {
      const link = event.target instanceof Element ? event.target.closest("a[href*='#']") : null;
      if (link instanceof HTMLAnchorElement && link.pathname === location.pathname) layOutWholePage();
    },
    { capture: true },
  );
  addEventListener("hashchange", layOutWholePage);
  const id = targetId(location.hash);
  if (!id) return;
  layOutWholePage();
  setTimeout(() => {
    const target = document.getElementById(id);
    if (!target) return;
    const top = target.getBoundingClientRect().top + window.scrollY - ANCHOR_OFFSET;
    const reduce = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    window.scrollTo({ top, behavior: reduce ? "auto" : "smooth" });
  }, ANCHOR_DELAY);
}

/** The id a hash names, or "" when it names none ("#%E0" is not a valid escape). */
function targetId(hash: string): string {
  try {
    return decodeURIComponent(hash.slice(1));
  } catch {
    return "";
  }
}
