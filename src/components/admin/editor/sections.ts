/**
 * The names of the locale files' sections (a key's first part: "hero", "footer", "testimonials") in
 * the panel's language, so the content editor never shows a writer a developer's key as a heading.
 */
import type { Language } from "#shared/languages.ts";
import { adminText, type AdminCopy } from "../copy";

/** A key's section: "hero" for "hero.title", "testimonials" for "testimonials:sara-rahimi.content". */
export const sectionOf = (key: string) => key.split(/[.:]/)[0];

/** The section's name in these texts; the section's own key for one they do not name yet. */
export function sectionName(key: string, copy: Pick<AdminCopy, "editor">): string {
  const names: Record<string, string> = copy.editor.sections;
  const section = sectionOf(key);
  return Object.hasOwn(names, section) ? names[section] : section;
}

/** A key's section in the panel's language `lang`: "hero.title" → "Opening of the home page". */
export const sectionLabel = (key: string, lang: Language) => sectionName(key, adminText(lang).copy);

/** A key's last part: "title" for "hero.title", "content" for "testimonials:sara-rahimi.content". */
export const fieldOf = (key: string) => key.split(/[.:]/).at(-1) ?? key;

/**
 * A text's name in the panel's language, from its key's last part ("hero.title" → "Title"), so a
 * card reads as what it is; undefined for a part the texts do not name (the card then shows its key
 * alone, as before).
 */
export function fieldName(key: string, copy: Pick<AdminCopy, "editor">): string | undefined {
  const names: Record<string, string> = copy.editor.fields;
  const field = fieldOf(key);
  return Object.hasOwn(names, field) ? names[field] : undefined;
}
