/**
 * Where the content editor reads the site's texts and commits them: the local git working copy
 * (`npm start`) or the site's repository through GitHub's API (production). Both answer the same
 * snapshot (file texts and their git blob ids) and make one commit per save, authored by the editor.
 */
import { publishConfig } from "#server/config.ts";
import { ConfigError } from "#server/config-error.ts";
import { githubPublisher } from "./github.ts";
import { localGitPublisher } from "./local-git.ts";
import { registeredRebuild, type RebuildResult } from "./rebuild.ts";
import type { Publisher } from "./types.ts";

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
  } else made = localGitPublisher({ dir: config.gitDir, rebuild: config.rebuild ? rebuildThroughHook : null });
  cached = { key, publisher: made };
  return made;
}

/** CONTENT_REBUILD=on: the rebuild the server's runtime registered (scripts/runtime/rebuild.mjs under `npm start`). */
async function rebuildThroughHook(dir: string): Promise<RebuildResult> {
  const hook = registeredRebuild();
  if (!hook)
    return {
      code: 1,
      output: "No rebuild is registered in this server (CONTENT_REBUILD=on works under npm start).",
    };
  return hook(dir);
}
