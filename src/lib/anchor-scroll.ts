/** On arrival with a hash, scroll smoothly to that id, 80 px below the top, after 100 ms. */
export const ANCHOR_OFFSET = 80;
export const ANCHOR_DELAY = 100;

export function scrollToHashOnArrival(): void {
  const id = decodeURIComponent(location.hash.slice(1));
  if (!id) return;
  setTimeout(() => {
    const target = document.getElementById(id);
    if (!target) return;
    const top = target.getBoundingClientRect().top + window.scrollY - ANCHOR_OFFSET;
    const reduce = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    window.scrollTo({ top, behavior: reduce ? "auto" : "smooth" });
  }, ANCHOR_DELAY);
}
