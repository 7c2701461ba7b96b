/**
 * A lead's source as stored: what the form sent (src/shared/schemas/sources.ts), reduced by the
 * rules of src/shared/sources.ts. An unknown page or choice becomes null, tags are allowlisted and
 * cut; nothing a visitor types reaches the admin's screen unchecked.
 */
import { resources } from "#src/i18n/locales/index.ts";
import type { LeadSourceInput } from "#shared/schemas/sources.ts";
import { campaignTag, knownPages, type LeadSource, referrerHost, SITE_PAGE_PATHS, sitePath } from "#shared/sources.ts";

const KNOWN = knownPages(SITE_PAGE_PATHS);

/** The "How did you hear about us?" choices: the ids of the locale files' `contact.form.heardOptions`. */
export const HEARD_CHOICES: ReadonlySet<string> = new Set(Object.keys(resources.en.contact.form.heardOptions));

/**
 * The source to store with an enquiry or a meeting, or null when nothing is known. `sentFrom` is the
 * page of sending the browser reports (the Referer of a plain form post) when the form did not say it.
 */
export function leadSource(input: LeadSourceInput, req: Request, sentFrom?: string | null): LeadSource | null {
  const own = new URL(req.url).host;
  const source: LeadSource = {
    page: sitePath(input?.page ?? sentFrom, KNOWN),
    landing: sitePath(input?.landing, KNOWN),
    referrer: referrerHost(input?.referrer, own),
    utmSource: campaignTag(input?.utmSource),
    utmMedium: campaignTag(input?.utmMedium),
    utmCampaign: campaignTag(input?.utmCampaign),
    heard: input?.heard && HEARD_CHOICES.has(input.heard) ? input.heard : null,
  };
  return Object.values(source).some((v) => v !== null) ? source : null;
}

/** The path of the page a plain form was posted from (its Referer, when it is one of ours). */
export function refererPath(req: Request): string | null {
  const referer = req.headers.get("referer");
  if (!referer || referer.length > 2048) return null;
  try {
    const url = new URL(referer);
    return url.origin === new URL(req.url).origin ? url.pathname : null;
  } catch {
    return null;
  }
}
