/**
 * The shape both admin resources share: GET the list (newest first, a page at a time), PATCH one
 * record's status, and, where a resource allows it, DELETE one record. Every call needs a session;
 * changes must come from the site's own origin.
 *
 * The list answers a plain array, so a client that knows nothing of paging still works: the first
 * page by default, `?limit=` (1–200, default 50) rows per page; when there are more, a `Link: <…?cursor=…>; rel="next"` header
 * names the next page (RFC 8288), and `?cursor=` asks for it. The search, filter and sort parameters
 * of src/shared/admin-lists.ts narrow and order the list; the Link keeps them.
 */
import type { Context } from "@netlify/functions";
import type { Kysely } from "kysely";
import type { $ZodType } from "zod/v4/core";
import { getDb } from "#db/client.ts";
import {
  decodeCursor,
  DEFAULT_PAGE_SIZE,
  InvalidCursorError,
  MAX_PAGE_SIZE,
  type Page,
  type PageRequest,
} from "#db/paging.ts";
import type { Database } from "#db/types.ts";
import type { AuditAction } from "#shared/schemas/security.ts";
import { audit } from "../auth/audit.ts";
import { requireAdmin, type SessionUser } from "../auth/auth.ts";
import { HttpError, json, type JsonAnswer, readJson, requestUrl, requireSameOrigin, route, validate } from "./http.ts";

/** The admin a request is made by, and what handling it needs of the request itself. */
export interface AdminRequest {
  req: Request;
  context: Context;
  admin: SessionUser;
}

interface AdminResource<Item, Patch, Filters> {
  list: (db: Kysely<Database>, page: PageRequest, filters: Filters, admin: SessionUser) => Promise<Page<Item>>;
  /** Reads the list's filters from the query string (src/shared/admin-lists.ts). */
  parseFilters: (query: URLSearchParams) => { filters: Filters; problems: string[] };
  patchSchema: $ZodType<Patch>;
  /** Without `change`: the patched record, or undefined when there is none (404); audited as auditAction. */
  update?: (db: Kysely<Database>, id: number, patch: Patch) => Promise<Item | undefined>;
  /** A PATCH that answers (and audits) itself, for a change that needs to know who makes it. */
  change?: (db: Kysely<Database>, id: number, patch: Patch, request: AdminRequest) => Promise<Response | JsonAnswer>;
  /** Deletes one record for good (answered 204); false when there is none. Without it, DELETE is a 405. */
  remove?: (db: Kysely<Database>, id: number) => Promise<boolean>;
  notFound: string;
  /** What the audit record calls a status change or deletion of one record. */
  auditAction: AuditAction;
}

const recordId = (req: Request, context: Context): number | null => {
  const raw = context?.params?.id ?? new URL(req.url).pathname.split("/").filter(Boolean)[3];
  if (raw === undefined) return null;
  if (!/^\d{1,9}$/.test(raw)) throw new HttpError(404, "Not found");
  return Number(raw);
};

/** The filters of a request's query string: a wrong one is a 400 that says what is allowed. */
export function readFilters<Filters>(
  parse: (query: URLSearchParams) => { filters: Filters; problems: string[] },
  query: URLSearchParams,
): Filters {
  const { filters, problems } = parse(query);
  if (problems.length) throw new HttpError(400, problems.join("; "));
  return filters;
}

/** A list's page, with an InvalidCursorError (a cursor of another sort) answered 400. */
export async function readPage<Filters, Item>(
  list: (page: Required<PageRequest>, filters: Filters) => Promise<Page<Item>>,
  page: Required<PageRequest>,
  filters: Filters,
): Promise<Page<Item>> {
  try {
    return await list(page, filters);
  } catch (error) {
    if (error instanceof InvalidCursorError) throw new HttpError(400, error.message);
    throw error;
  }
}

/** `?limit=` and `?cursor=`, checked: a wrong one is a 400 that says what is allowed. */
function pageRequest(query: URLSearchParams): Required<PageRequest> {
  const rawLimit = query.get("limit");
  const limit = rawLimit === null ? DEFAULT_PAGE_SIZE : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw new HttpError(400, `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}`);
  }
  const cursor = query.get("cursor");
  if (cursor !== null && !decodeCursor(cursor)) throw new HttpError(400, "cursor is not valid: use the Link of a page");
  return { limit, cursor };
}

export function adminResource<Item, Patch, Filters>(resource: AdminResource<Item, Patch, Filters>) {
  const { remove } = resource;
  // What one record answers to; the list answers GET only.
  const onRecord = remove ? "PATCH, DELETE" : "PATCH";
  return route({
    GET: async (req, context) => {
      const db = getDb();
      const admin = await requireAdmin(db, req);
      if (recordId(req, context) !== null)
        throw new HttpError(405, "Method GET is not allowed on a single record", {}, { Allow: onRecord });
      const url = requestUrl(req, context);
      const request = pageRequest(url.searchParams);
      const filters = readFilters(resource.parseFilters, url.searchParams);
      const page = await readPage((p, f) => resource.list(db, p, f, admin), request, filters);
      if (!page.next) return json(page.items);
      const next = new URL(url);
      next.searchParams.set("limit", String(request.limit));
      next.searchParams.set("cursor", page.next);
      return json(page.items, 200, { Link: `<${next.pathname}${next.search}>; rel="next"` });
    },
    PATCH: async (req, context) => {
      requireSameOrigin(req);
      const db = getDb();
      const admin = await requireAdmin(db, req);
      const id = recordId(req, context);
      if (id === null) throw new HttpError(405, "PATCH needs a record id", {}, { Allow: "GET" });
      const patch = validate(resource.patchSchema, await readJson(req));
      if (resource.change) return resource.change(db, id, patch, { req, context, admin });
      const updated = await resource.update!(db, id, patch);
      if (!updated) throw new HttpError(404, resource.notFound);
      await audit(db, req, context, admin, resource.auditAction, {
        target: String(id),
        detail: { ...(patch as object) },
      });
      return json(updated);
    },
    ...(remove && {
      DELETE: async (req: Request, context: Context) => {
        requireSameOrigin(req);
        const db = getDb();
        const admin = await requireAdmin(db, req);
        const id = recordId(req, context);
        if (id === null) throw new HttpError(405, "DELETE needs a record id", {}, { Allow: "GET" });
        if (!(await remove(db, id))) throw new HttpError(404, resource.notFound);
        await audit(db, req, context, admin, resource.auditAction, { target: String(id), detail: { deleted: true } });
        return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
      },
    }),
  });
}
