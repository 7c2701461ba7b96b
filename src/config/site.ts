/**
 * The one place to rebrand: brand, contact details, links and the public host.
 * Deploy-time overrides come from the environment variables of PUBLIC_SETTINGS (read at build time),
 * so a fork changes env or this file, and nothing else hard-codes these values.
 */
const env: Record<string, string | undefined> =
  (typeof import.meta !== "undefined" && (import.meta as { env?: Record<string, string> }).env) || {};

/**
 * The public settings, each overridable by the environment variable of its name at build time. The
 * doc comments are their documentation: `npm run docs` writes them into docs/operator.md and
 * .env.example (`@default` says what an empty default means).
 */
export const PUBLIC_SETTINGS = {
  /**
   * Public origin: canonical URLs, hreflang, sitemap, Open Graph, JSON-LD, links in emails.
   * @group Site (read at build time)
   */
  SITE_URL: "https://bridgewise.eu",
  /** Brand name shown everywhere, and the sender's name of every email. */
  PUBLIC_BRAND_NAME: "Bridgewise",
  /** Short machine name: prefixes the language cookie (`<slug>_language`). */
  PUBLIC_BRAND_SLUG: "bridgewise",
  /** The company's email address: shown on the site, `Reply-To` of visitors' emails. */
  PUBLIC_CONTACT_EMAIL: "hello@bridgewise.eu",
  /** The company's phone number as displayed (the `tel:` link is derived). */
  PUBLIC_CONTACT_PHONE: "+31 20 808 1234",
  /** Messaging-app (WhatsApp) number in international format, digits only. */
  PUBLIC_MESSAGING_NUMBER: "31208081234",
  /** The company's LinkedIn page. */
  PUBLIC_LINKEDIN_URL: "https://www.linkedin.com/company/bridgewise-global",
  /** Who hosts the site, named on the privacy pages as a processor of visitors' data. */
  PUBLIC_HOSTING_PROVIDER: "Netlify",
  /** Who hosts the database, named on the privacy pages. */
  PUBLIC_DATABASE_PROVIDER: "Neon",
  /**
   * Who sends the emails, named on the privacy pages (left out when neither this nor SMTP_URL is
   * known at build time).
   * @default the host of `SMTP_URL`
   */
  PUBLIC_MAIL_PROVIDER: "",
} as const;

const pick = (key: keyof typeof PUBLIC_SETTINGS): string => {
  const fromImportMeta = env[key];
  const fromProcess = typeof process !== "undefined" ? process.env?.[key] : undefined;
  return (fromImportMeta || fromProcess || PUBLIC_SETTINGS[key]).trim();
};

const siteUrl = pick("SITE_URL").replace(/\/+$/, "");

export const site = {
  /** Brand name as shown to people. */
  name: pick("PUBLIC_BRAND_NAME"),
  /** Short machine name: prefixes the language cookie (`<slug>_language`). */
  slug: pick("PUBLIC_BRAND_SLUG"),
  email: pick("PUBLIC_CONTACT_EMAIL"),
  /** Phone as displayed; `phoneHref` is derived for tel: links. */
  phone: pick("PUBLIC_CONTACT_PHONE"),
  /** Messaging-app (WhatsApp) number in international format, digits only. */
  messagingNumber: pick("PUBLIC_MESSAGING_NUMBER"),
  /** Prefilled chat greeting, in English whatever the page's language. */
  chatGreeting: "Hello! I would like to learn more about your services.",
  linkedinUrl: pick("PUBLIC_LINKEDIN_URL"),
  /** Absolute origin used for canonical URLs, sitemap and Open Graph. */
  url: siteUrl,
  host: new URL(siteUrl).host,
  /**
   * Who processes visitors' data for us, named on the privacy pages. The mail provider defaults to the
   * host of SMTP_URL when the build can see it.
   */
  processors: {
    hosting: pick("PUBLIC_HOSTING_PROVIDER"),
    database: pick("PUBLIC_DATABASE_PROVIDER"),
    mail: pick("PUBLIC_MAIL_PROVIDER"),
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

/** The office's address on one line (street, postcode and town): where meetings at the office happen. */
export const officeAddressLine = `${site.postalAddress.streetAddress}, ${site.postalAddress.postalCode} ${site.postalAddress.addressLocality}`;

export const telHref = (phone: string) => `tel:${phone.replace(/[^\d+]/g, "")}`;

/** Link that opens a chat with the company number and the English greeting. */
export const chatUrl = `https://wa.me/${site.messagingNumber}?text=${encodeURIComponent(site.chatGreeting)}`;
