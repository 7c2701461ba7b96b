/**
 * The glossaries as the product reads them (the content API and the content editor), compiled once.
 * `npm run check:copy` reads the same files from disk; both check with src/shared/glossary.ts.
 */
import { compileGlossary, parseGlossary, type CompiledGlossaryEntry } from "#shared/glossary.ts";
import nl from "./glossary.nl.json" with { type: "json" };
import fa from "./glossary.fa.json" with { type: "json" };

const FILES: Record<string, unknown> = { nl, fa };
const compiled = new Map<string, CompiledGlossaryEntry[]>();

/** The compiled glossary of a language (empty for one without a glossary, such as English). */
export function glossaryOf(lang: string): CompiledGlossaryEntry[] {
  let found = compiled.get(lang);
  if (!found) {
    found = Object.hasOwn(FILES, lang) ? compileGlossary(parseGlossary(FILES[lang]).entries) : [];
    compiled.set(lang, found);
  }
  return found;
}
