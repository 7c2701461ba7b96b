/**
 * The shape both admin resources share: GET the list (newest first, a page at a time), PATCH one
 * record's status, and, where a resource allows it, DELETE one record. Every call needs a session;
 * changes must come from the site's own origin.
 *
 * The list answers an array, as the spec's clients expect: the first page by default, `?limit=`
 * (1–200, default 50) rows per page; when there are more, a `Link: <…?cursor=…>; rel="next"` header
 * names the next page (RFC 8288), and `?cursor=` asks for it.
 */
import type { Context } from "@netlify/functions";
import type { Kysely } from "kysely";
import type { $ZodType } from "zod/v4/core";
import { getDb } from "../../db/client.ts";
import { decodeCursor, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type Page, type PageRequest } from "../../db/paging.ts";
import type { Database } from "../../db/types.ts";
import { requireAdmin } from "./auth.ts";
import { HttpError, json, readJson, requireSameOrigin, route, validate } from "./http.ts";

interface AdminResource<Item, Patch> {
  list: (db: Kysely<Database>, page: PageRequest) => Promise<Page<Item>>;
  patchSchema: $ZodType<Patch>;
  update: (db: Kysely<Database>, id: number, patch: Patch) => Promise<Item | undefined>;
  /** Deletes one record for good (answered 204); false when there is none. Without it, DELETE is a 405. */
  remove?: (db: Kysely<Database>, id: number) => Promise<boolean>;
  notFound: string;
}

const recordId = (req: Request, context: Context): number | null => {
  const raw = context?.params?.id ?? new URL(req.url).pathname.split("/").filter(Boolean)[3];
  if (raw === undefined) return null;
  if (!/^\d{1,9}$/.test(raw)) throw new HttpError(404, "Not found");
  return Number(raw);
};

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

export function adminResource<Item, Patch>(resource: AdminResource<Item, Patch>) {
  const { remove } = resource;
  // What one record answers to; the list answers GET only.
  const onRecord = remove ? "PATCH, DELETE" : "PATCH";
  return route({
    GET: async (req, context) => {
      const db = getDb();
      await requireAdmin(db, req);
      if (recordId(req, context) !== null)
        throw new HttpError(405, "Method GET is not allowed on a single record", {}, { Allow: onRecord });
      const url = new URL(req.url);
      const request = pageRequest(url.searchParams);
      const page = await resource.list(db, request);
      if (!page.next) return json(page.items);
      const next = new URL(url.pathname, url.origin);
      next.searchParams.set("limit", String(request.limit));
      next.searchParams.set("cursor", page.next);
      return json(page.items, 200, { Link: `<${next.pathname}${next.search}>; rel="next"` });
    },
    PATCH: async (req, context) => {
      requireSameOrigin(req);
      const db = getDb();
      await requireAdmin(db, req);
      const id = recordId(req, context);
      if (id === null) throw new HttpError(405, "PATCH needs a record id", {}, { Allow: "GET" });
      const patch = validate(resource.patchSchema, await readJson(req));
      const updated = await resource.update(db, id, patch);
      if (!updated) throw new HttpError(404, resource.notFound);
      return json(updated);
    },
    ...(remove && {
      DELETE: async (req: Request, context: Context) => {
        requireSameOrigin(req);
        const db = getDb();
        await requireAdmin(db, req);
        const id = recordId(req, context);
        if (id === null) throw new HttpError(405, "DELETE needs a record id", {}, { Allow: "GET" });
        if (!(await remove(db, id))) throw new HttpError(404, resource.notFound);
        return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
      },
    }),
  });
}
