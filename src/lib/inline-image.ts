/**
 * The illustrations at the top of the pages as data: URLs, so the first screen paints with them
 * (no request to wait for, none in the page's critical path). Build time only.
 */
const svgs = import.meta.glob<string>("../../public/images/*.svg", { query: "?raw", import: "default", eager: true });

/** `/images/hero.svg` as a data: URL of the same SVG (the CSP allows data: images). */
export function inlineImage(path: string): string {
  const svg = svgs[`../../public${path}`];
  if (svg === undefined) throw new Error(`No SVG at public${path} to inline`);
  const compact = svg
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/>\s+</g, "><")
    .replace(/\s+/g, " ")
    .trim();
  // Every character that is not allowed in a URL percent-encoded (no spaces, so the HTML stays valid).
  return `data:image/svg+xml,${encodeURIComponent(compact).replace(/%22/g, "'")}`;
}
