/** Sessions as the Security page lists them, and the id a path names. */
import type { Context } from "@netlify/functions";
import type { SessionRow } from "#db/sessions.repository.ts";
import type { SessionInfo } from "#shared/api/security.ts";
import { placeCountry } from "./session-meta.ts";

/**
 * The API form of session rows, the asking session marked `current`. Of the place only the country
 * goes out: the network prefix is kept for the server's own comparisons, and means nothing to a person.
 */
export function sessionInfos(rows: SessionRow[], currentId: string): SessionInfo[] {
  return rows.map((row) => ({
    id: row.id,
    userId: row.userId,
    username: row.username,
    createdAt: new Date(row.createdAt).toISOString(),
    lastSeenAt: new Date(row.lastSeenAt).toISOString(),
    device: row.device,
    browser: row.browser,
    country: placeCountry(row.place),
    current: row.id === currentId,
  }));
}

/** The `:id` of a path such as /api/account/sessions/:id, or undefined on the collection's path. */
export function pathId(req: Request, context: Context | undefined, collection: string): string | undefined {
  if (context?.params?.id !== undefined) return context.params.id;
  const path = new URL(req.url).pathname.replace(/\/+$/, "");
  return path.length > collection.length && path.startsWith(`${collection}/`)
    ? decodeURIComponent(path.slice(collection.length + 1))
    : undefined;
}
