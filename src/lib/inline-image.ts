/**
 * The illustrations at the top of the pages, inlined as `<svg>` elements: the first screen paints
 * with them in the same frame as its text (no request to wait for, no image to decode), and they
 * add less to the HTML than a percent-encoded data: URL. Build time only.
 */
const svgs = import.meta.glob<string>("../../public/images/*.svg", { query: "?raw", import: "default", eager: true });

const escapeAttribute = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * `/images/hero.svg` as markup to place with `set:html`: an image to assistive technology
 * (`role="img"` with `label` as its name), styled by `className`. Its ids must be unique on the page.
 */
export function inlineSvg(path: string, { label, className }: { label: string; className: string }): string {
  const svg = svgs[`../../public${path}`];
  if (svg === undefined) throw new Error(`No SVG at public${path} to inline`);
  const compact = svg
    .replace(/<\?xml[\s\S]*?\?>/g, "")
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/>\s+</g, "><")
    .replace(/\s+/g, " ")
    .trim();
  if (!compact.startsWith("<svg ")) throw new Error(`public${path} does not start with <svg`);
  return compact.replace(
    /^<svg /,
    `<svg role="img" aria-label="${escapeAttribute(label)}" class="${escapeAttribute(className)}" focusable="false" `,
  );
}
