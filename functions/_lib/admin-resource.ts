/**
 * The shape both admin resources share: GET the list (newest first), PATCH one record's status.
 * Every call needs a session; changes must come from the site's own origin.
 */
import type { Context } from "@netlify/functions";
import type { Kysely } from "kysely";
import type { ZodType } from "zod";
import { getDb } from "../../db/client.ts";
import type { Database } from "../../db/types.ts";
import { requireAdmin } from "./auth.ts";
import { HttpError, json, readJson, requireSameOrigin, route, validate } from "./http.ts";

interface AdminResource<Item, Patch> {
  list: (db: Kysely<Database>) => Promise<Item[]>;
  patchSchema: ZodType<Patch>;
  update: (db: Kysely<Database>, id: number, patch: Patch) => Promise<Item | undefined>;
  notFound: string;
}

const recordId = (req: Request, context: Context): number | null => {
  const raw = context?.params?.id ?? new URL(req.url).pathname.split("/").filter(Boolean)[3];
  if (raw === undefined) return null;
  if (!/^\d{1,9}$/.test(raw)) throw new HttpError(404, "Not found");
  return Number(raw);
};

export function adminResource<Item, Patch>(resource: AdminResource<Item, Patch>) {
  return route({
    GET: async (req, context) => {
      const db = getDb();
      await requireAdmin(db, req);
      if (recordId(req, context) !== null)
        throw new HttpError(405, "Method GET is not allowed on a single record", {}, { Allow: "PATCH" });
      return json(await resource.list(db));
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
  });
}
