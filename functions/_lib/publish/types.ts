/**
 * What a publisher is (functions/_lib/publish/provider.ts chooses one): where the content editor
 * reads the site's texts and commits them.
 */
import type { PublishStatus } from "#shared/api/content.ts";

/** The files as they are on the branch now. */
export interface Snapshot {
  /** The commit the files were read at. */
  head: string;
  files: Map<string, string>;
}

/** One commit's files before and after it. */
export interface CommitFiles {
  parent: string;
  before: Map<string, string>;
  after: Map<string, string>;
}

export interface Author {
  name: string;
  email: string;
}

export interface Publisher {
  readonly name: "git" | "github";
  read(paths: readonly string[]): Promise<Snapshot>;
  /**
   * Commits `changed` (path → new text) on top of `snapshot`. Throws StaleSnapshotError when one of
   * these files changed on the branch since the snapshot was read: the caller reads again and merges.
   */
  commit(
    snapshot: Snapshot,
    changed: ReadonlyMap<string, string>,
    message: string,
    author: Author,
  ): Promise<{ commit: string; at: string }>;
  /**
   * The files as they were at `commit` and at its first parent (what that commit changed), or null
   * when the repository has no such commit (or it has no parent).
   */
  readCommit(commit: string, paths: readonly string[]): Promise<CommitFiles | null>;
  status(): Promise<PublishStatus>;
  /**
   * Runs `work` (a read, a change and a commit) as one step: no other save, in this process or another
   * on the same working copy, lands in between. Only where a lock can cover the store (local git).
   */
  serialise?<T>(work: () => Promise<T>): Promise<T>;
}
