/**
 * Finds text a reader cannot read whole: text that sticks out of its box, is clipped by a box with
 * hidden overflow, is cut with an ellipsis or a line clamp, or has a word split over two lines
 * without a hyphen; and a page wider than the screen.
 * Runs inside the page (`page.evaluate(findTextProblems)`), so it must not use anything from outside.
 */
export interface TextProblem {
  kind: "page-wider-than-screen" | "sticks-out" | "clipped" | "ellipsis" | "broken-word";
  /** A readable path to the element ("section#about > … > h3"). */
  where: string;
  /** The text concerned (first 80 characters). */
  text: string;
  /** By how many pixels. */
  by: number;
}

export function findTextProblems(): TextProblem[] {
  const problems: TextProblem[] = [];
  const tolerance = 1.5;
  const describe = (el: Element) => {
    const parts: string[] = [];
    for (let e: Element | null = el; e && e !== document.body && parts.length < 5; e = e.parentElement) {
      const id = e.id ? `#${e.id}` : "";
      const cls = !id && typeof e.className === "string" && e.className ? `.${e.className.trim().split(/\s+/)[0]}` : "";
      parts.unshift(`${e.tagName.toLowerCase()}${id}${cls}`);
      if (e.id) break;
    }
    return parts.join(" > ");
  };
  const snippet = (s: string) =>
    s
      .replace(/\s+/g, " ")
      .replace(/\u00AD/g, "")
      .trim()
      .slice(0, 80);

  const doc = document.documentElement;
  if (doc.scrollWidth > doc.clientWidth + tolerance) {
    // Name the widest element that reaches past the screen, so the report says where to look.
    let widest: Element = doc;
    let reach = doc.clientWidth;
    const clippedAway = (el: Element) => {
      for (let e = el.parentElement; e && e !== document.body; e = e.parentElement)
        if (getComputedStyle(e).overflowX !== "visible") return true;
      return false;
    };
    for (const el of document.body.querySelectorAll("*")) {
      if (clippedAway(el)) continue;
      const r = el.getBoundingClientRect();
      const edge = getComputedStyle(doc).direction === "rtl" ? doc.clientWidth - r.left : r.right;
      if (r.width > 0 && edge > reach + tolerance) {
        widest = el;
        reach = edge;
      }
    }
    problems.push({
      kind: "page-wider-than-screen",
      where: describe(widest),
      text: snippet(widest === doc ? "" : (widest.textContent ?? "")),
      by: Math.round(doc.scrollWidth - doc.clientWidth),
    });
  }

  /** An element a reader can see: rendered, not visually hidden (sr-only), not transparent. */
  const visible = (el: Element) => {
    for (let e: Element | null = el; e; e = e.parentElement) {
      const style = getComputedStyle(e);
      if (style.display === "none" || style.visibility === "hidden" || style.opacity === "0") return false;
      if (style.getPropertyValue("clip") === "rect(0px, 0px, 0px, 0px)" || style.clipPath === "inset(50%)")
        return false;
      if (e.hasAttribute("hidden")) return false;
      // The content of a closed <details> (a closed menu) is not shown; its <summary> is.
      const details = e.parentElement?.closest("details");
      if (details && !details.open && !e.closest("summary")) return false;
    }
    return true;
  };
  const isBlock = (el: Element) => {
    const d = getComputedStyle(el).display;
    return !d.startsWith("inline") || d === "inline-block" || d === "inline-flex" || d === "inline-grid";
  };
  const readerScrolls = (el: Element) => {
    const s = getComputedStyle(el);
    return /auto|scroll/.test(`${s.overflowX} ${s.overflowY}`) && (el as HTMLElement).tabIndex >= 0;
  };
  const clips = (el: Element) => {
    const s = getComputedStyle(el);
    return s.overflowX !== "visible" || s.overflowY !== "visible";
  };

  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) =>
      node.textContent &&
      node.textContent.trim() &&
      node.parentElement &&
      !node.parentElement.closest("script,style,noscript,template,option,select,textarea")
        ? NodeFilter.FILTER_ACCEPT
        : NodeFilter.FILTER_REJECT,
  });
  const seen = new Set<Element>();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement!;
    if (!visible(parent)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
    if (!rects.length) continue;
    const text = {
      left: Math.min(...rects.map((r) => r.left)),
      right: Math.max(...rects.map((r) => r.right)),
      top: Math.min(...rects.map((r) => r.top)),
      bottom: Math.max(...rects.map((r) => r.bottom)),
    };
    // 1. Out of its own box: the nearest block that holds the text.
    let block: Element = parent;
    while (!isBlock(block) && block.parentElement) block = block.parentElement;
    const box = block.getBoundingClientRect();
    if (box.width > 1 && box.height > 1) {
      const out = Math.max(box.left - text.left, text.right - box.right);
      if (out > tolerance && !seen.has(block)) {
        seen.add(block);
        problems.push({
          kind: clips(block) ? "clipped" : "sticks-out",
          where: describe(block),
          text: snippet(node.textContent!),
          by: Math.round(out),
        });
      }
    }
    // 2. A word split over two lines where it has no hyphenation point ("opgesc|haald", "€5|M+"):
    //    the browser's last resort (overflow-wrap) keeps it in its box but makes it unreadable.
    //    Breaks at spaces, soft hyphens and hyphens are fine.
    if (rects.length > 1) {
      const value = node.textContent!;
      /**
       * Top of a character's box. A character just after a soft hyphen where the line broke also
       * reports the hyphen drawn at the end of the line before: `pick` chooses its own box.
       */
      const topOf = (start: number, end: number, pick: "first" | "last") => {
        const r = document.createRange();
        r.setStart(node!, start);
        r.setEnd(node!, end);
        const boxes = [...r.getClientRects()].filter((rect) => rect.width > 0);
        return (pick === "first" ? boxes[0] : boxes[boxes.length - 1])?.top;
      };
      for (const m of value.matchAll(/[^\s\u00AD\-‐–—/]{2,}/g)) {
        // Compare the line of the word's first and last character (surrogate pairs kept whole).
        const end = m.index + m[0].length;
        const lastStart = /[\uDC00-\uDFFF]/.test(value[end - 1]) ? end - 2 : end - 1;
        const first = topOf(m.index, m.index + (/[\uD800-\uDBFF]/.test(value[m.index]) ? 2 : 1), "last");
        const last = topOf(lastStart, end, "first");
        if (first !== undefined && last !== undefined && Math.abs(last - first) > 8 && !seen.has(parent)) {
          seen.add(parent);
          problems.push({ kind: "broken-word", where: describe(block), text: m[0], by: 0 });
          break;
        }
      }
    }
    // 3. Clipped by a box with hidden overflow, up to the card of a carousel slide (whose slides
    //    outside the carousel's window are hidden on purpose). A scrolling region a reader can reach
    //    with the keyboard too (tabindex 0: arrow keys scroll it) clips nothing: the rest is a scroll away.
    for (let e: Element | null = parent; e && e !== document.body; e = e.parentElement) {
      if (clips(e) && !readerScrolls(e)) {
        const r = e.getBoundingClientRect();
        const cut = Math.max(r.left - text.left, text.right - r.right, r.top - text.top, text.bottom - r.bottom);
        if (cut > tolerance && !seen.has(e)) {
          seen.add(e);
          problems.push({ kind: "clipped", where: describe(e), text: snippet(node.textContent!), by: Math.round(cut) });
        }
      }
      if (e.classList.contains("swiper-slide")) break;
    }
  }
  // 4. Ellipsis and line clamps that are actually cutting text.
  for (const el of document.body.querySelectorAll("*")) {
    const s = getComputedStyle(el);
    const ellipsis = s.textOverflow === "ellipsis" && el.scrollWidth > el.clientWidth + 1;
    const clamp = s.webkitLineClamp !== "none" && s.webkitLineClamp !== "" && el.scrollHeight > el.clientHeight + 1;
    if ((ellipsis || clamp) && visible(el) && el.textContent?.trim())
      problems.push({
        kind: "ellipsis",
        where: describe(el),
        text: snippet(el.textContent),
        by: Math.round(ellipsis ? el.scrollWidth - el.clientWidth : el.scrollHeight - el.clientHeight),
      });
  }
  return problems;
}
