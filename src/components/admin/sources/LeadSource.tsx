import { useState } from "react";
import type { LeadSource as Source } from "#shared/sources.ts";
import { adminCopy } from "../copy.ts";
import { mediumName, sourceName } from "./labels.ts";

/**
 * Where an enquiry or a meeting came from, on its card: the campaign and source of the visit's first
 * touch, its landing page, the page it was sent from and the "How did you hear about us?" choice;
 * known sources, media and choices by their names in the panel's language (labels.ts).
 * Every value passed the allowlist when stored, and React escapes what it shows.
 */
export function LeadSourceField({ source }: { source: Source | null }) {
  const [{ lang, dir, copy }] = useState(adminCopy);
  const t = copy.sources;
  const parts: [string, string | null][] = source
    ? [
        [t.leadSource, source.utmSource ? sourceName(t, source.utmSource) : (source.referrer ?? t.direct)],
        [t.leadCampaign, source.utmCampaign],
        [t.leadMedium, source.utmMedium && mediumName(t, source.utmMedium)],
        [t.leadLanding, source.landing],
        [t.leadPage, source.page],
        [t.leadHeard, source.heard && sourceName(t, source.heard)],
      ]
    : [];
  const shown = parts.filter((p): p is [string, string] => Boolean(p[1]));
  return (
    <div className="col-span-full" lang={lang} dir={dir} data-testid="lead-source">
      <dt className="text-xs font-semibold uppercase tracking-wider text-muted">{t.lead}</dt>
      <dd className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-sm text-ink">
        {shown.length === 0 && <span className="text-muted italic">{t.leadNone}</span>}
        {shown.map(([label, value]) => (
          <span key={label}>
            <span className="text-muted">{label}: </span>
            <bdi className="font-medium [overflow-wrap:anywhere]">{value}</bdi>
          </span>
        ))}
      </dd>
    </div>
  );
}
