/**
 * The newsletter for the admin, session required:
 * - GET /api/admin/newsletter → { confirmed, pending }: only confirmed addresses count;
 * - GET /api/admin/newsletter/subscribers.csv → the confirmed subscribers as a CSV download (UTF-8
 *   with a byte order mark, formulas neutralised: functions/_lib/http/csv.ts).
 */
import type { Config } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import { confirmedSubscribers, subscriberCounts } from "#db/newsletter.repository.ts";
import { toIso } from "#db/rows.ts";
import { now } from "#server/office.ts";
import type { NewsletterCountsAnswer } from "#shared/api/newsletter.ts";
import { requireAdmin } from "./_lib/auth/auth.ts";
import { csvResponse } from "./_lib/http/csv.ts";
import { json, route, routes } from "./_lib/http/http.ts";
import { ROUTES } from "#shared/routes.ts";

const CSV_HEADER = ["email", "language", "confirmed_at", "signed_up_at", "signed_up_on_page"];

export default routes({
  newsletter: route({
    GET: async (req) => {
      const db = getDb();
      await requireAdmin(db, req);
      return json<NewsletterCountsAnswer>(await subscriberCounts(db));
    },
  }),
  "subscribers.csv": route({
    GET: async (req) => {
      const db = getDb();
      await requireAdmin(db, req);
      const rows = await confirmedSubscribers(db);
      const day = now().toISOString().slice(0, 10);
      return csvResponse(
        [
          CSV_HEADER,
          ...rows.map((r) => [
            r.email,
            r.language,
            r.confirmedAt ? toIso(r.confirmedAt) : "",
            toIso(r.consentedAt),
            r.consentPage ?? "",
          ]),
        ],
        `newsletter-subscribers-${day}.csv`,
      );
    },
  }),
});

export const config: Config = { path: [ROUTES.admin.newsletter, ROUTES.admin.subscribersCsv] };
