/**
 * The production publisher: reads the texts from the site's repository and commits a save through
 * GitHub's git data API (blobs → tree → commit → move the branch) with a server-side token, so the
 * editor needs no GitHub account and the host (Netlify) rebuilds from the new commit. The branch is
 * moved without force: when another commit landed since the files were read, GitHub answers 422 and
 * the save is read again and merged (StaleSnapshotError).
 */
import type { PublishStatus } from "#shared/api/content.ts";
import { site } from "#config/site.ts";
import { PublishError, StaleSnapshotError } from "./errors.ts";
import type { Author, Publisher, Snapshot } from "./types.ts";

interface GithubOptions {
  repository: string;
  branch: string;
  token: string;
  apiUrl: string;
}

export function githubPublisher({ repository, branch, token, apiUrl }: GithubOptions): Publisher {
  const api = async <T>(method: string, route: string, body?: unknown): Promise<{ status: number; data: T }> => {
    let res: Response;
    try {
      res = await fetch(`${apiUrl}/repos/${repository}${route}`, {
        method,
        headers: {
          Accept: "application/vnd.github+json",
          Authorization: `Bearer ${token}`,
          "X-GitHub-Api-Version": "2022-11-28",
          "User-Agent": `${site.slug}-content-editor`,
          ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(15_000),
      });
    } catch (error) {
      throw new PublishError(`GitHub could not be reached: ${error instanceof Error ? error.message : error}`);
    }
    const data = (await res.json().catch(() => ({}))) as T;
    return { status: res.status, data };
  };
  const expect = <T>(answer: { status: number; data: T }, what: string): T => {
    if (answer.status >= 200 && answer.status < 300) return answer.data;
    const message = (answer.data as { message?: string })?.message ?? "";
    throw new PublishError(`GitHub refused to ${what} (${answer.status}${message ? `: ${message}` : ""})`);
  };
  const ref = `heads/${branch}`;
  let status: PublishStatus = { provider: "github", state: "idle" };
  // The tree each snapshot's commit has, so a commit builds on it without reading it again.
  const trees = new Map<string, string>();

  /** The files at a commit; a file the commit did not have (404) reads as empty. */
  const readAt = async (commit: string, paths: readonly string[], missing: "empty" | "refuse") => {
    const files = new Map<string, string>();
    await Promise.all(
      paths.map(async (p) => {
        const answer = await api<{ content: string; encoding: string }>("GET", `/contents/${p}?ref=${commit}`);
        if (answer.status === 404 && missing === "empty") return void files.set(p, "");
        const file = expect(answer, `read ${p}`);
        files.set(p, Buffer.from(file.content, file.encoding === "base64" ? "base64" : "utf8").toString("utf8"));
      }),
    );
    return files;
  };

  return {
    name: "github",
    async read(paths) {
      const head = expect(await api<{ object: { sha: string } }>("GET", `/git/ref/${ref}`), "read the branch").object
        .sha;
      const commit = expect(await api<{ tree: { sha: string } }>("GET", `/git/commits/${head}`), "read the commit");
      trees.set(head, commit.tree.sha);
      return { head, files: await readAt(head, paths, "refuse") };
    },
    async readCommit(commit, paths) {
      if (!/^[0-9a-f]{40}$/.test(commit)) return null;
      const answer = await api<{ parents?: { sha: string }[] }>("GET", `/git/commits/${commit}`);
      // GitHub answers 404 (or 422) for a commit the repository does not have.
      if (answer.status === 404 || answer.status === 422) return null;
      const parent = expect(answer, "read the commit").parents?.[0]?.sha;
      if (!parent) return null;
      const [before, after] = await Promise.all([readAt(parent, paths, "empty"), readAt(commit, paths, "empty")]);
      return { parent, before, after };
    },
    async commit(snapshot: Snapshot, changed: ReadonlyMap<string, string>, message: string, author: Author) {
      const tree = await Promise.all(
        [...changed].map(async ([p, text]) => {
          const blob = expect(
            await api<{ sha: string }>("POST", "/git/blobs", { content: text, encoding: "utf-8" }),
            "store a file",
          );
          return { path: p, mode: "100644", type: "blob", sha: blob.sha };
        }),
      );
      let baseTree = trees.get(snapshot.head);
      if (!baseTree)
        baseTree = expect(
          await api<{ tree: { sha: string } }>("GET", `/git/commits/${snapshot.head}`),
          "read the commit",
        ).tree.sha;
      const newTree = expect(
        await api<{ sha: string }>("POST", "/git/trees", { base_tree: baseTree, tree }),
        "make the tree",
      );
      const at = new Date().toISOString();
      const commit = expect(
        await api<{ sha: string }>("POST", "/git/commits", {
          message,
          tree: newTree.sha,
          parents: [snapshot.head],
          author: { ...author, date: at },
        }),
        "make the commit",
      );
      const moved = await api("PATCH", `/git/refs/${ref}`, { sha: commit.sha, force: false });
      // Not a fast-forward: someone committed since the snapshot. The caller reads again and merges.
      if (moved.status === 422 || moved.status === 409) throw new StaleSnapshotError();
      expect(moved, "move the branch");
      status = { provider: "github", state: "committed", commit: commit.sha, at };
      return { commit: commit.sha, at };
    },
    async status() {
      return status;
    },
  };
}
