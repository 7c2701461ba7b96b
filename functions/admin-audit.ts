/**
 * The audit record, admin only, read only (nothing in the panel edits or deletes it):
 * - GET /api/admin/audit?actor=&action=&from=&to=&before= → { entries, next }, newest first, 100 a page;
 * - GET /api/admin/audit.csv with the same filters → every matching entry (10,000 at most) as CSV.
 * Dates are UTC days (yyyy-mm-dd), both ends included. Downloading the CSV is itself an export entry.
 */
import type { Config, Context } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import { listAudit } from "#db/audit.repository.ts";
import type { AuditAnswer } from "#shared/api/security.ts";
import { ROUTES } from "#shared/routes.ts";
import { auditQuerySchema, type AuditQuery } from "#shared/schemas/security.ts";
import { audit } from "./_lib/auth/audit.ts";
import { requireAdmin } from "./_lib/auth/auth.ts";
import { csvResponse } from "./_lib/http/csv.ts";
import { HttpError, json, route, validate } from "./_lib/http/http.ts";

const PAGE = 100;
const CSV_MAX = 10_000;
const FIELDS = ["actor", "action", "from", "to", "before"] as const;

/** The filters of the query string; an unknown or repeated parameter is a 400. */
function auditQuery(req: Request): AuditQuery {
  const params = new URL(req.url).searchParams;
  const raw: Record<string, string> = {};
  for (const [name, value] of params) {
    if (!(FIELDS as readonly string[]).includes(name))
      throw new HttpError(400, `Unknown parameter ${name.slice(0, 40)}`);
    if (Object.hasOwn(raw, name)) throw new HttpError(400, `${name} is given twice`);
    raw[name] = value;
  }
  return validate(auditQuerySchema, raw);
}

const isCsv = (req: Request) => new URL(req.url).pathname.replace(/\/+$/, "").endsWith(".csv");

export default route({
  GET: async (req: Request, context: Context) => {
    const db = getDb();
    const admin = await requireAdmin(db, req);
    const query = auditQuery(req);
    if (!isCsv(req)) {
      const entries = await listAudit(db, query, PAGE + 1);
      const next = entries.length > PAGE ? entries[PAGE - 1].id : null;
      return json<AuditAnswer>({ success: true, entries: entries.slice(0, PAGE), next });
    }
    const entries = await listAudit(db, query, CSV_MAX);
    await audit(db, req, context, admin, "export", {
      target: "audit",
      detail: { filters: { ...query }, rows: entries.length },
    });
    const day = new Date().toISOString().slice(0, 10);
    return csvResponse(
      [
        ["at", "actor", "place", "action", "target", "subject", "detail"],
        ...entries.map((e) => [e.at, e.actor, e.place, e.action, e.target, e.subject ?? "", JSON.stringify(e.detail)]),
      ],
      `audit-${day}.csv`,
    );
  },
});

export const config: Config = { path: [ROUTES.admin.audit, ROUTES.admin.auditCsv] };
