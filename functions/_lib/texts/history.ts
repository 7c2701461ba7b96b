/**
 * The history of published texts: every publish and every undo the content editor made, read from
 * the audit record (its `text.publish` and `text.undo` entries carry the commit and what changed).
 * Git holds the texts themselves; an undo reads what a commit changed from git, so the audit's copy
 * of each text only has to be enough to recognise it (shortened, at most a few per entry).
 */
import { type Kysely, sql } from "kysely";
import type { Database } from "#db/types.ts";
import type { HistoryEntry, TextChange } from "#shared/api/content.ts";
import { LANGS, parseTexts, type Files } from "./texts.ts";

/** How many changes of one publish the history lists, and how long each text shown is. */
export const SHOWN_CHANGES = 20;
export const SHOWN_LENGTH = 300;

const cut = (text: string) => (text.length > SHOWN_LENGTH ? `${text.slice(0, SHOWN_LENGTH - 1)}…` : text);

/** What an audit entry keeps of a publish's changes: the first few, each text shortened, and how many in all. */
export const recorded = (changes: readonly TextChange[]) => ({
  changes: changes
    .slice(0, SHOWN_CHANGES)
    .map(({ lang, key, was, value }) => ({ lang, key, was: cut(was), value: cut(value) })),
  count: changes.length,
});

/** The texts a commit changed: each text whose value differs between the files before and after it. */
export function textsChanged(before: Files, after: Files): TextChange[] {
  let old: ReturnType<typeof parseTexts>;
  let now: ReturnType<typeof parseTexts>;
  try {
    old = parseTexts(before);
    now = parseTexts(after);
  } catch {
    // A commit whose files do not parse (a developer's, half-written) changed nothing the editor can undo.
    return [];
  }
  const out: TextChange[] = [];
  for (const lang of LANGS)
    for (const key of Object.keys(now.texts[lang])) {
      const was = old.texts[lang][key] ?? "";
      const value = now.texts[lang][key];
      if (was !== value) out.push({ lang, key, was, value });
    }
  return out;
}

const HISTORY_ACTIONS = ["text.publish", "text.undo"] as const;

interface Row {
  id: string;
  at: Date;
  actor: string;
  action: string;
  detail: Record<string, unknown>;
}

const str = (value: unknown) => (typeof value === "string" ? value : "");

/** Only what an entry's detail should hold, whatever else is there: the detail is JSON of the past. */
function changesOf(detail: Record<string, unknown>): TextChange[] {
  const list = Array.isArray(detail.changes) ? (detail.changes as unknown[]) : [];
  return list.flatMap((c) => {
    if (!c || typeof c !== "object") return [];
    const { lang, key, was, value } = c as Record<string, unknown>;
    return typeof lang === "string" && typeof key === "string" ? [{ lang, key, was: str(was), value: str(value) }] : [];
  });
}

const select = (db: Kysely<Database>) =>
  db.selectFrom("auditLog").select(["id", "at", "actor", "action", "detail"]).where("action", "in", HISTORY_ACTIONS);

/** The publish or undo that made `commit`, or null when the content editor did not make it. */
export async function entryOf(db: Kysely<Database>, commit: string): Promise<Row | null> {
  const row = await select(db)
    .where(sql<string>`detail->>'commit'`, "=", commit)
    .orderBy("id", "asc")
    .executeTakeFirst();
  return row ?? null;
}

/** The undo of `commit`, if one was made. */
export async function undoOf(db: Kysely<Database>, commits: readonly string[]): Promise<Row[]> {
  if (!commits.length) return [];
  return db
    .selectFrom("auditLog")
    .select(["id", "at", "actor", "action", "detail"])
    .where("action", "=", "text.undo")
    .where(sql<string>`detail->>'undoes'`, "in", commits)
    .execute();
}

/** The latest publishes and undos, newest first, each with the undo that reverted it (if any). */
export async function listHistory(db: Kysely<Database>, limit: number): Promise<HistoryEntry[]> {
  const rows = await select(db).orderBy("id", "desc").limit(limit).execute();
  const commits = rows.map((r) => str(r.detail.commit)).filter(Boolean);
  const undone = new Map((await undoOf(db, commits)).map((u) => [str(u.detail.undoes), u]));
  return rows.map((row) => {
    const commit = str(row.detail.commit);
    const undo = undone.get(commit);
    const changes = changesOf(row.detail);
    return {
      id: String(row.id),
      commit,
      at: new Date(row.at).toISOString(),
      actor: row.actor,
      kind: row.action === "text.undo" ? "undo" : "publish",
      ...(str(row.detail.undoes) ? { undoes: str(row.detail.undoes) } : {}),
      changes,
      count: typeof row.detail.count === "number" ? row.detail.count : changes.length,
      ...(undo
        ? { undoneBy: { commit: str(undo.detail.commit), actor: undo.actor, at: new Date(undo.at).toISOString() } }
        : {}),
    };
  });
}
