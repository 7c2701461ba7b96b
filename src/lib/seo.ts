import { site } from "../config/site";
import { LANGUAGES, type Language } from "../shared/languages";
import { services } from "../data/services";

/** Absolute URL of a page in a language (`null` for the unprefixed, language-choosing URL). */
export function pageUrl(lang: Language | null, path: string): string {
  const rest = path === "/" ? "/" : path;
  return lang ? `${site.url}/${lang}${rest}` : `${site.url}${rest}`;
}

/** hreflang alternates for a page: one per language plus x-default (the unprefixed URL). */
export function alternates(path: string): { hreflang: string; href: string }[] {
  return [
    ...LANGUAGES.map((lang) => ({ hreflang: lang, href: pageUrl(lang, path) })),
    { hreflang: "x-default", href: pageUrl(null, path) },
  ];
}

/** JSON-LD for the organisation and its three services, names and descriptions in `lang`. */
export function structuredData(lang: Language, serviceText: Record<string, { title: string; description: string }>) {
  const logo = `${site.url}/icon-512.png`;
  const organization = {
    "@type": "Organization",
    "@id": `${site.url}/#organization`,
    name: site.name,
    url: site.url,
    logo,
    email: site.email,
    telephone: site.phone,
    sameAs: [site.linkedinUrl, `https://wa.me/${site.messagingNumber}`],
    address: { "@type": "PostalAddress", ...site.postalAddress },
    contactPoint: {
      "@type": "ContactPoint",
      contactType: "customer service",
      email: site.email,
      telephone: site.phone,
      areaServed: ["NL", "EU", "IR"],
      availableLanguage: [...LANGUAGES],
    },
  };
  const offers = services.map((s) => ({
    "@type": "Service",
    name: serviceText[s.key]?.title,
    description: serviceText[s.key]?.description,
    url: pageUrl(lang, s.path),
    provider: { "@id": `${site.url}/#organization` },
    areaServed: "Europe",
  }));
  return {
    "@context": "https://schema.org",
    "@graph": [
      organization,
      {
        "@type": "ItemList",
        itemListElement: offers.map((item, i) => ({ "@type": "ListItem", position: i + 1, item })),
      },
    ],
  };
}

/** JSON for a <script type="application/ld+json">, safe against `</script>` in any value. */
export const jsonForScript = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");
