/**
 * Unsaved texts kept in the browser (localStorage), so that a reload, a closed tab or a sign-out loses
 * nothing: one entry per person and text, holding the draft and the published text it was written
 * against (the base), so that a text someone changed meanwhile is noticed when the draft is offered
 * back. An entry goes when its text is published or its draft discarded. The storage is outside
 * data: whatever is in it (another version's entries, a hand-edited value, megabytes) is read with
 * care and never breaks the editor.
 */

/** A draft longer than a text can be (the API's limit) is not kept, nor restored. */
export const MAX_DRAFT_LENGTH = 4000;

const PREFIX = "texts-draft.v1:";
const prefixOf = (user: string) => `${PREFIX}${encodeURIComponent(user)}:`;

export interface KeptDraft {
  /** "nl:hero.title" */
  id: string;
  value: string;
  base: string;
  /** ISO time of the last keystroke kept. */
  at: string;
}

/** What keeping a draft came to: kept (or nothing to keep), too long, or the browser refused (full, blocked). */
export type KeepResult = "kept" | "tooLong" | "refused";

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null; // blocked by the browser's settings
  }
}

/** Keeps `value` as the draft of `id` (or forgets it, when it is the base again). */
export function keepDraft(user: string, id: string, value: string, base: string, at: Date): KeepResult {
  const store = storage();
  if (!store) return "refused";
  const name = prefixOf(user) + id;
  try {
    if (value === base) {
      store.removeItem(name);
      return "kept";
    }
    if (value.length > MAX_DRAFT_LENGTH) {
      // An older, shorter draft of this text would be offered back as if it were the latest: it goes.
      store.removeItem(name);
      return "tooLong";
    }
    store.setItem(name, JSON.stringify({ value, base, at: at.toISOString() }));
    return "kept";
  } catch {
    // QuotaExceededError: the browser's storage for this site is full.
    return "refused";
  }
}

/** Forgets the drafts of these ids (all of this person's when `ids` is absent). */
export function dropDrafts(user: string, ids?: readonly string[]) {
  const store = storage();
  if (!store) return;
  const prefix = prefixOf(user);
  const names = ids ? ids.map((id) => prefix + id) : namesOf(store, prefix);
  for (const name of names)
    try {
      store.removeItem(name);
    } catch {
      // nothing to do: a storage that cannot remove keeps the entry until the next discard
    }
}

function namesOf(store: Storage, prefix: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < store.length; i++) {
    const name = store.key(i);
    if (name?.startsWith(prefix)) out.push(name);
  }
  return out;
}

/**
 * This person's kept drafts of texts the site has (`known`), and the ids of entries that cannot be
 * offered back (not JSON, the wrong shape, longer than a text can be, or a text the site no longer has).
 */
export function keptDrafts(
  user: string,
  known: (id: string) => boolean,
): { drafts: KeptDraft[]; unreadable: string[] } {
  const store = storage();
  const drafts: KeptDraft[] = [];
  const unreadable: string[] = [];
  if (!store) return { drafts, unreadable };
  const prefix = prefixOf(user);
  for (const name of namesOf(store, prefix)) {
    const id = name.slice(prefix.length);
    let raw: string | null = null;
    try {
      raw = store.getItem(name);
    } catch {
      raw = null;
    }
    const parsed = raw && raw.length <= 4 * MAX_DRAFT_LENGTH + 200 ? parse(raw) : null;
    if (parsed && known(id)) drafts.push({ id, ...parsed });
    else unreadable.push(id);
  }
  return { drafts: drafts.sort((a, b) => a.at.localeCompare(b.at)), unreadable };
}

function parse(raw: string): Omit<KeptDraft, "id"> | null {
  try {
    const data: unknown = JSON.parse(raw);
    if (!data || typeof data !== "object") return null;
    const { value, base, at } = data as Record<string, unknown>;
    if (typeof value !== "string" || typeof base !== "string" || typeof at !== "string") return null;
    if (value.length > MAX_DRAFT_LENGTH || Number.isNaN(Date.parse(at))) return null;
    return { value, base, at };
  } catch {
    return null;
  }
}
