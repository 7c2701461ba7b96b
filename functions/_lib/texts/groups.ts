/**
 * The content editor's outline: every text of a locale grouped as the visitor meets it, page →
 * section → text. Derived from the locale's key structure (a top-level key is a section, its leaves
 * are the texts) and the small map below naming the page each section is on; no field list.
 */
type Tree = { [key: string]: string | Tree };

/** The page (or place) each top-level section of the locale files appears on, in the visitor's order. */
export const SECTION_PAGES = {
  general: "Every page",
  navbar: "Every page",
  footer: "Every page",
  common: "Every page",
  meta: "Titles and search results",
  hero: "Home page",
  services: "Home page",
  whyChooseUs: "Home page",
  globalVision: "Home page",
  platform: "Home page",
  testimonials: "Home page",
  team: "Home page",
  contact: "Home page",
  newsletter: "Home page",
  servicesPage: "Service pages",
  enquiry: "Forms' answers",
  formGuard: "Forms' answers",
  manage: "Meeting page (link in the confirmation email)",
  mail: "Emails",
  privacy: "Privacy page",
  notFound: "Page not found",
  admin: "Admin panel",
} as const satisfies Record<string, string>;

export interface TextEntry {
  /** The dotted key, shown small beside the text (e.g. "hero.title"). */
  key: string;
}
export interface Section {
  name: string;
  texts: TextEntry[];
}
export interface Page {
  name: string;
  sections: Section[];
}

/** The leaf keys under `tree`, dotted, in file order. */
function leaves(tree: Tree, prefix: string): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === "string" ? [`${prefix}${key}`] : leaves(value, `${prefix}${key}.`),
  );
}

/**
 * The outline of `locale` (the English file, which holds every key). Throws for a top-level section
 * the map does not place, so a new section is given a page rather than hidden.
 */
export function outline(locale: Tree): Page[] {
  const pages = new Map<string, Section[]>();
  for (const page of Object.values(SECTION_PAGES)) pages.set(page, []);
  for (const [section, value] of Object.entries(locale)) {
    const page = (SECTION_PAGES as Record<string, string>)[section];
    if (!page)
      throw new Error(`The locale section "${section}" has no page in SECTION_PAGES (functions/_lib/texts/groups.ts)`);
    const texts = typeof value === "string" ? [section] : leaves(value, `${section}.`);
    pages.get(page)!.push({ name: section, texts: texts.map((key) => ({ key })) });
  }
  return [...pages].filter(([, sections]) => sections.length > 0).map(([name, sections]) => ({ name, sections }));
}
