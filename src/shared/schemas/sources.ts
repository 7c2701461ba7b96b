/**
 * The payloads of visit counting and lead sources (src/shared/sources.ts holds the rules that
 * reduce each value to what is stored).
 */
import * as z from "zod/mini";

/** Past this a value is refused (400), not cut: the site's own script never sends one longer. */
const RAW_MAX = 256;

const raw = (field: string) =>
  z.optional(z.nullable(z.string().check(z.maxLength(RAW_MAX, `${field} must be at most ${RAW_MAX} characters`))));

/**
 * What a form sends about where it was sent from: the page, the visit's first touch as the tab kept
 * it (landing page, referrer host, campaign tags), and the "How did you hear about us?" choice.
 * Every value is optional; the function keeps only what passes the rules (unknown pages and
 * choices become null, tags are cut to TAG_MAX_LENGTH).
 */
export const leadSourceSchema = z.optional(
  z.nullable(
    z.object({
      page: raw("Source page"),
      landing: raw("Source landing"),
      referrer: raw("Source referrer"),
      utmSource: raw("Source utm_source"),
      utmMedium: raw("Source utm_medium"),
      utmCampaign: raw("Source utm_campaign"),
      heard: raw("Source heard"),
    }),
  ),
);
export type LeadSourceInput = z.output<typeof leadSourceSchema>;

/**
 * One counted view as the page's inline script sends it (POST /api/views, text/plain so the beacon
 * needs no preflight): p the path, r the referrer's host, s/m/c the campaign tags, e whether it is
 * the first page of the visit. Unknown keys are ignored.
 */
export const viewSchema = z.object({
  p: z.string().check(z.maxLength(RAW_MAX)),
  r: raw("r"),
  s: raw("s"),
  m: raw("m"),
  c: raw("c"),
  e: z.optional(z.union([z.boolean(), z.number()])),
});
export type ViewPayload = z.output<typeof viewSchema>;
