/**
 * The one place to rebrand: brand, contact details, links and the public host.
 * Deploy-time overrides come from PUBLIC_* environment variables (read at build time),
 * so a fork changes env or this file, and nothing else hard-codes these values.
 */
const env: Record<string, string | undefined> =
  (typeof import.meta !== "undefined" && (import.meta as { env?: Record<string, string> }).env) || {};
const pick = (key: string, fallback: string): string => {
  const fromImportMeta = env[key];
  const fromProcess = typeof process !== "undefined" ? process.env?.[key] : undefined;
  return (fromImportMeta || fromProcess || fallback).trim();
};

const siteUrl = pick("SITE_URL", "https://bridgewise.eu").replace(/\/+$/, "");

export const site = {
  /** Brand name as shown to people. */
  name: pick("PUBLIC_BRAND_NAME", "Bridgewise"),
  /** Short machine name: prefixes the language cookie (`<slug>_language`). */
  slug: pick("PUBLIC_BRAND_SLUG", "bridgewise"),
  email: pick("PUBLIC_CONTACT_EMAIL", "hello@bridgewise.eu"),
  /** Phone as displayed; `phoneHref` is derived for tel: links. */
  phone: pick("PUBLIC_CONTACT_PHONE", "+31 20 808 1234"),
  /** Messaging-app (WhatsApp) number in international format, digits only. */
  messagingNumber: pick("PUBLIC_MESSAGING_NUMBER", "31208081234"),
  /** Prefilled chat greeting: English in every language, as the spec asks. */
  chatGreeting: "Hello! I would like to learn more about your services.",
  linkedinUrl: pick("PUBLIC_LINKEDIN_URL", "https://www.linkedin.com/company/bridgewise-global"),
  /** Absolute origin used for canonical URLs, sitemap and Open Graph. */
  url: siteUrl,
  host: new URL(siteUrl).host,
  /**
   * Who processes visitors' data for us, named on the privacy pages. The mail provider defaults to the
   * host of SMTP_URL when the build can see it.
   */
  processors: {
    hosting: pick("PUBLIC_HOSTING_PROVIDER", "Netlify"),
    database: pick("PUBLIC_DATABASE_PROVIDER", "Neon"),
    mail: pick("PUBLIC_MAIL_PROVIDER", ""),
  },
  /** Postal address of the Dutch office, for structured data. */
  postalAddress: {
    streetAddress: "Herengracht 420",
    postalCode: "1017 BZ",
    addressLocality: "Amsterdam",
    addressCountry: "NL",
  },
} as const;

export const languageCookieName = `${site.slug}_language`;

export const telHref = (phone: string) => `tel:${phone.replace(/[^\d+]/g, "")}`;

/** Link that opens a chat with the company number and the English greeting. */
export const chatUrl = `https://wa.me/${site.messagingNumber}?text=${encodeURIComponent(site.chatGreeting)}`;
