/**
 * The illustrations at the top of the pages as data: URLs, so the first screen paints with them
 * (no request to wait for, none in the page's critical path). Build time only.
 */
const svgs = import.meta.glob<string>("../../public/images/*.svg", { query: "?raw", import: "default", eager: true });

/** `/images/hero.svg` as a data: URL of the same SVG (the CSP allows data: images). */
export function inlineImage(path: string): string {
  const svg = svgs[`../../public${path}`];
  if (svg === undefined) throw new Error(`No SVG at public${path} to inline`);
  const compact = svg.replace(/\s+/g, " ").trim();
  return `data:image/svg+xml,${encodeURIComponent(compact).replace(/%20/g, " ").replace(/%22/g, "'")}`;
}
