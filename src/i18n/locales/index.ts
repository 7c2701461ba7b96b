/**
 * Every locale file, by language. The Record type makes a new language in src/shared/languages.ts
 * a type error until its file is listed here. Import attributes keep this loadable by Node itself
 * (the functions use it too), not only by Vite.
 */
import type { Language } from "#shared/languages.ts";
import en from "./en.json" with { type: "json" };
import nl from "./nl.json" with { type: "json" };
import fa from "./fa.json" with { type: "json" };

/** A locale file's shape: English is the source, the others have exactly its keys (locales.test.ts). */
export type LocaleResource = typeof en;

export const resources: Record<Language, LocaleResource> = { en, nl, fa };
