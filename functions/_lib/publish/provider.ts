/**
 * Where the content editor reads the site's texts and commits them: the local git working copy
 * (`npm start`) or the site's repository through GitHub's API (production). Both answer the same
 * snapshot (file texts and their git blob ids) and make one commit per save, authored by the editor.
 */
import type { PublishStatus } from "#shared/api/content.ts";
import { publishConfig } from "#server/config.ts";
import { ConfigError } from "#server/config-error.ts";
import { githubPublisher } from "./github.ts";
import { localGitPublisher } from "./local-git.ts";

/** The files as they are on the branch now. */
export interface Snapshot {
  /** The commit the files were read at. */
  head: string;
  files: Map<string, string>;
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
  status(): Promise<PublishStatus>;
}

/** Someone else committed to the same files since they were read. */
export class StaleSnapshotError extends Error {
  constructor() {
    super("The files changed on the branch since they were read");
  }
}

/** A problem reaching the repository (GitHub down, a wrong token): the save is not made. */
export class PublishError extends Error {}

let cached: { key: string; publisher: Publisher } | undefined;

/** The publisher the configuration names (one per configuration, so its lock and status are shared). */
export function publisher(): Publisher {
  const config = publishConfig();
  const key = JSON.stringify(config);
  if (cached?.key === key) return cached.publisher;
  let made: Publisher;
  if (config.provider === "github") {
    const { repository, token } = config.github;
    if (!repository || !token)
      throw new ConfigError("CONTENT_PROVIDER is github, but GITHUB_REPOSITORY or GITHUB_TOKEN is not set.");
    made = githubPublisher({ ...config.github, repository, token });
  } else made = localGitPublisher({ dir: config.gitDir, rebuild: config.rebuild });
  cached = { key, publisher: made };
  return made;
}
