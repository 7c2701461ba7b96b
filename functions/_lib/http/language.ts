import { DEFAULT_LANGUAGE, isLanguage, languageOfCountry, type Language } from "#shared/languages.ts";

/** Our best language for an Accept-Language header, honouring q-values; null when none fits. */
export function fromAcceptLanguage(header: string | null | undefined): Language | null {
  if (!header) return null;
  const ranked = header
    .slice(0, 1000)
    .split(",")
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const weight = q ? Number(q.slice(2)) : 1;
      return { primary: tag.trim().toLowerCase().split("-")[0], weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((entry) => entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  const best = ranked.find((entry) => isLanguage(entry.primary))?.primary;
  return isLanguage(best) ? best : null;
}

/** The visitor's language: their country where known, else their browser's preference, else English. */
export function detectLanguage(
  country: string | null | undefined,
  acceptLanguage: string | null | undefined,
): Language {
  return (country && languageOfCountry(country)) || fromAcceptLanguage(acceptLanguage) || DEFAULT_LANGUAGE;
}

/**
 * The language of a visitor's submission: the one the payload names; else the page it was sent
 * from (the Referer's language prefix, /nl/…); else the browser's preference; else the default
 * language. The islands need not send it: the page they run on already says it.
 */
export function submissionLanguage(req: Request, named: unknown): Language {
  if (isLanguage(named)) return named;
  const referer = req.headers.get("referer");
  if (referer) {
    try {
      const prefix = new URL(referer).pathname.split("/")[1];
      if (isLanguage(prefix)) return prefix;
    } catch {
      // A malformed Referer says nothing.
    }
  }
  return fromAcceptLanguage(req.headers.get("accept-language")) ?? DEFAULT_LANGUAGE;
}
