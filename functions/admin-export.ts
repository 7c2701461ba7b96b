/**
 * CSV export of an admin list as it is filtered: GET /api/admin/export/submissions and
 * GET /api/admin/export/meetings take the list's own search, filter and sort parameters
 * (src/shared/admin-lists.ts) and answer every matching record as a CSV file (functions/_lib/http/csv.ts:
 * UTF-8 with a BOM, CRLF, RFC 4180 quoting, formulas made inert). The file is streamed a page at a
 * time by keyset, so 10,000 rows cost the memory of one page. Admin only.
 */
import type { Config, Context } from "@netlify/functions";
import type { Kysely } from "kysely";
import { getDb } from "#db/client.ts";
import { listEnquiries } from "#db/enquiries.repository.ts";
import { listMeetings } from "#db/meetings.repository.ts";
import type { Page } from "#db/paging.ts";
import type { Database } from "#db/types.ts";
import { serviceNames } from "#src/i18n/plain.ts";
import {
  type EnquiryFilters,
  isFiltered,
  type MeetingFilters,
  parseEnquiryFilters,
  parseMeetingFilters,
} from "#shared/admin-lists.ts";
import type { AdminEnquiry } from "#shared/api/enquiries.ts";
import type { AdminMeeting } from "#shared/api/meetings.ts";
import type { AdminNote } from "#shared/api/notes.ts";
import { englishLanguageName } from "#shared/languages.ts";
import { officeNow } from "#shared/dates.ts";
import { OFFICE_TIME_ZONE } from "#shared/office.ts";
import { serviceDisplayName } from "#shared/services.ts";
import { now } from "#server/office.ts";
import { readFilters, readPage } from "./_lib/http/admin-resource.ts";
import { audit } from "./_lib/auth/audit.ts";
import { requireAdmin } from "./_lib/auth/auth.ts";
import { leadListContext } from "./_lib/lead-lists.ts";
import { BOM, csvLine } from "./_lib/http/csv.ts";
import { HttpError, route } from "./_lib/http/http.ts";
import { enquiryReference, meetingReference } from "#shared/leads.ts";
import { ROUTES } from "#shared/routes.ts";

/** Rows fetched per database round trip while streaming. */
const BATCH = 500;

// Office time of many instants, quickly: the zone's offset only changes on a whole hour (DST), so it
// is looked up once per hour of the instants met (Intl) and the rest is arithmetic.
const offsets = new Map<number, number>();
function officeOffsetMs(ms: number): number {
  const hour = Math.floor(ms / 3_600_000);
  let offset = offsets.get(hour);
  if (offset === undefined) {
    const wall = officeNow(new Date(hour * 3_600_000), OFFICE_TIME_ZONE);
    offset = Date.parse(`${wall.date}T${wall.time}:00Z`) - hour * 3_600_000;
    if (offsets.size > 50_000) offsets.clear();
    offsets.set(hour, offset);
  }
  return offset;
}

/** An ISO instant as office wall-clock time, `yyyy-MM-dd HH:mm`, which spreadsheets read as a date. */
function officeTime(iso: string | null): string {
  if (!iso) return "";
  const ms = Date.parse(iso);
  return new Date(ms + officeOffsetMs(ms)).toISOString().slice(0, 16).replace("T", " ");
}

const noteCells = (note: AdminNote | null) => [note?.text ?? "", note?.by ?? "", officeTime(note?.at ?? null)];

interface Export<Item, Filters> {
  name: string;
  parse: (query: URLSearchParams) => { filters: Filters; problems: string[] };
  list: (
    db: Kysely<Database>,
    page: { limit: number; cursor: string | null },
    filters: Filters,
    admin: { id: number },
  ) => Promise<Page<Item>>;
  header: string[];
  row: (item: Item) => (string | number | null)[];
}

const english = serviceNames("en");

const enquiries: Export<AdminEnquiry, EnquiryFilters> = {
  name: "enquiries",
  parse: parseEnquiryFilters,
  list: async (db, page, filters, admin) => listEnquiries(db, page, filters, await leadListContext(db, admin, filters)),
  header: [
    "Reference",
    "Received (office time)",
    "First name",
    "Last name",
    "Email",
    "Company",
    "Service",
    "Language",
    "Message",
    "Stage",
    "Replied on",
    "Emails",
    "Note",
    "Note by",
    "Note on",
  ],
  row: (e) => [
    enquiryReference(e.id),
    officeTime(e.createdAt),
    e.firstName,
    e.lastName,
    e.email,
    e.company,
    serviceDisplayName(e.service, english),
    englishLanguageName(e.language),
    e.message,
    e.stage,
    officeTime(e.repliedAt),
    e.emailStatus,
    ...noteCells(e.note),
  ],
};

const meetings: Export<AdminMeeting, MeetingFilters> = {
  name: "meetings",
  parse: parseMeetingFilters,
  list: (db, page, filters) => listMeetings(db, page, filters, now()),
  header: [
    "Reference",
    "Date",
    "Time",
    "Name",
    "Email",
    "Phone",
    "Language",
    "Status",
    "Requested (office time)",
    "Emails",
    "Note",
    "Note by",
    "Note on",
  ],
  row: (m) => [
    meetingReference(m.id),
    m.date,
    m.time,
    m.name,
    m.email,
    m.phone,
    englishLanguageName(m.language),
    m.isConfirmed ? "Confirmed" : "Pending",
    officeTime(m.createdAt),
    m.emailStatus,
    ...noteCells(m.note),
  ],
};

const EXPORTS = { submissions: enquiries, meetings } as const;

async function answer<Item, Filters>(req: Request, context: Context, kind: Export<Item, Filters>): Promise<Response> {
  const db = getDb();
  const admin = await requireAdmin(db, req);
  const filters = readFilters(kind.parse, new URL(req.url).searchParams);
  // The first page is read before answering, so a database that is down is still a clear 503.
  let page = await readPage((p, f) => kind.list(db, p, f, admin), { limit: BATCH, cursor: null }, filters);
  await audit(db, req, context, admin, "export", {
    target: kind.name,
    detail: exportedWith(new URL(req.url).searchParams),
  });
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(BOM + csvLine(kind.header)));
    },
    async pull(controller) {
      controller.enqueue(encoder.encode(page.items.map((item) => csvLine(kind.row(item))).join("")));
      if (!page.next) return controller.close();
      try {
        page = await kind.list(db, { limit: BATCH, cursor: page.next }, filters, admin);
      } catch (error) {
        // Headers are gone: end the download cut short rather than pretend it is complete.
        console.error(`[api] export of ${kind.name} failed mid-stream:`, error);
        controller.error(error);
      }
    },
  });
  const today = officeTime(now().toISOString()).slice(0, 10);
  const filename = `${kind.name}${isFiltered(filters as EnquiryFilters) ? "-filtered" : ""}-${today}.csv`;
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/** What the audit record keeps of an export's query: its filters, and only whether it searched (the text may name someone). */
function exportedWith(query: URLSearchParams): Record<string, unknown> {
  const filters = Object.fromEntries([...query].filter(([name]) => name !== "q" && name !== "cursor").slice(0, 10));
  return { filters, searched: query.has("q") };
}

export default route({
  GET: async (req, context) => {
    const kind = new URL(req.url).pathname.replace(/\/+$/, "").split("/").pop();
    if (kind === "submissions") return answer(req, context, EXPORTS.submissions);
    if (kind === "meetings") return answer(req, context, EXPORTS.meetings);
    throw new HttpError(404, "Not found");
  },
});

export const config: Config = { path: [ROUTES.admin.exportEnquiries, ROUTES.admin.exportMeetings] };
