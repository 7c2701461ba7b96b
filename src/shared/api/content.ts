/** The content editor (/api/content/…). */
import type { ErrorAnswer, TextAddress } from "./common.ts";

/** One outline entry: page → section → keys (functions/_lib/texts/groups.ts). */
export interface ContentPage {
  name: string;
  sections: { name: string; keys: string[] }[];
}

/** A testimonial or a team member: its texts' keys, by field, under one name. */
export interface ContentItem {
  id: string;
  label: string;
  /** field name → key ("content" → "testimonials:sara-rahimi.content"). */
  fields: Record<string, string>;
}

export interface ReviewFlagAnswer {
  lang: string;
  key: string;
  reason: "changed" | "new";
}

/** The copy rules the editor checks with as the editor types (src/i18n/copy-rules.json). */
export interface CopyRulesAnswer {
  keepInEnglish: Record<string, string[]>;
  lengthBudgets: { what: string; keys: string[]; maxLength?: number; maxWordLength?: number; why?: string }[];
}

/** GET /api/content/texts */
export interface ContentAnswer {
  success: true;
  languages: string[];
  /** file path → revision (its git blob sha), sent back with a save. */
  revisions: Record<string, string>;
  pages: ContentPage[];
  collections: { testimonials: ContentItem[]; team: ContentItem[] };
  /** lang → key → text. */
  texts: Record<string, Record<string, string>>;
  reviews: ReviewFlagAnswer[];
  rules: CopyRulesAnswer;
  publish: PublishStatus;
}

/** Where the last save stands: committed, being built, published, or refused by the build. */
export interface PublishStatus {
  /** "git": commits to the working copy (npm start rebuilds); "github": commits through GitHub's API (Netlify rebuilds). */
  provider: "git" | "github";
  /** committed: saved to the repository, the host (Netlify) builds it; building, published, failed: `npm start`'s rebuild. */
  state: "idle" | "committed" | "building" | "published" | "failed";
  commit?: string;
  /** ISO time of the commit (building) or of the finished build (published, failed). */
  at?: string;
  /** The build's refusal in plain words (failed). */
  message?: string;
  /** The text the refusal is about, when the build names one. */
  text?: TextAddress;
}

/** A change the editor sends: the text as it was loaded (`was`) and as it is now (`value`). */
export interface TextChange extends TextAddress {
  value: string;
  was: string;
}

/** PUT /api/content/texts: 200 */
export interface SaveAnswer {
  success: true;
  /** The commit made, or null when every text was already as sent. */
  commit: string | null;
  at: string | null;
  revisions: Record<string, string>;
  /** The saved texts as written (Persian with Arabic letters replaced). */
  saved: (TextAddress & { value: string })[];
  reviews: ReviewFlagAnswer[];
  publish: PublishStatus;
}

/** POST /api/content/team: 201, the member's id and the commit that added it. */
export interface TeamAddAnswer {
  success: true;
  id: string;
  commit: string;
  at: string | null;
  revisions: Record<string, string>;
  publish: PublishStatus;
}

/** PUT /api/content/texts: 409 when another editor changed the same text since it was loaded. */
export type ConflictAnswer = ErrorAnswer & Required<Pick<ErrorAnswer, "conflicts">>;

/** One publish or undo in the history (GET /api/content/history). */
export interface HistoryEntry {
  id: string;
  commit: string;
  /** ISO time it was published. */
  at: string;
  actor: string;
  kind: "publish" | "undo";
  /** For an undo: the commit it reverted. */
  undoes?: string;
  /** The first texts it changed, each shortened (`count` says how many in all). */
  changes: TextChange[];
  count: number;
  /** The undo that reverted it, if any. */
  undoneBy?: { commit: string; actor: string; at: string };
}

/** GET /api/content/history */
export interface HistoryAnswer {
  success: true;
  entries: HistoryEntry[];
}

/** POST /api/content/undo: why an undo was refused (the answer's `code`; the panel words each). */
export const UNDO_REFUSALS = {
  /** 404: the content editor did not make that commit. */
  notEditors: "not-editors-commit",
  /** 409: an undo of it was made already (or every text is back as it was). */
  alreadyUndone: "already-undone",
  /** 409: a text it changed was changed again since (the answer's `conflicts`). */
  changedSince: "changed-since",
  /** 409: the commit is not on the site's branch (any more), or changed no text. */
  notOnBranch: "not-on-branch",
} as const;
