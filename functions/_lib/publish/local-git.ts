/**
 * The local publisher: reads the texts from a git working copy and commits a save to its current
 * branch with the editor as author (only the saved files; whatever else is staged stays staged).
 * With `rebuild` (a hook: under `npm start`, scripts/runtime/rebuild.mjs runs the copy check and the build,
 * and a failed build keeps the last good site), the site is rebuilt after each commit and the status
 * tells the editor "published at …" or the build's refusal.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import type { PublishStatus } from "#shared/api/content.ts";
import { site } from "#config/site.ts";
import { ALL_PATHS, textAtLine } from "../texts/texts.ts";
import { LockTimeoutError, withFileLock, writeFileAtomic } from "../texts/files.ts";
import { childEnv } from "./child-env.ts";
import { PublishError, StaleSnapshotError } from "./errors.ts";
import type { Rebuild } from "./rebuild.ts";
import type { Author, Publisher, Snapshot } from "./types.ts";

const run = promisify(execFile);

export function localGitPublisher({ dir, rebuild }: { dir: string; rebuild: Rebuild | null }): Publisher {
  const git = async (args: string[], env: Record<string, string> = {}) => {
    try {
      return (
        await run("git", args, { cwd: dir, env: childEnv({ set: env }), maxBuffer: 8 * 1024 * 1024 })
      ).stdout.trim();
    } catch (error) {
      const stderr = (error as { stderr?: string }).stderr ?? String(error);
      throw new PublishError(`git ${args[0]} failed in ${dir}: ${stderr.trim()}`);
    }
  };
  /** Whether git agrees (exit 0), for questions whose "no" is an answer, not a failure. */
  const gitYes = (args: string[]) =>
    run("git", args, { cwd: dir, env: childEnv({ set: {} }) }).then(
      () => true,
      () => false,
    );
  /** A file's text at a commit, whole (git() trims). */
  const gitShow = async (spec: string) => {
    try {
      return (await run("git", ["show", spec], { cwd: dir, env: childEnv({ set: {} }), maxBuffer: 8 * 1024 * 1024 }))
        .stdout;
    } catch (error) {
      throw new PublishError(`git show failed in ${dir}: ${(error as { stderr?: string }).stderr ?? error}`);
    }
  };
  /** The files at a commit; a file the commit did not have reads as empty. */
  const readAt = async (commit: string, paths: readonly string[]) =>
    new Map(
      await Promise.all(
        paths.map(
          async (p) =>
            [p, (await gitYes(["cat-file", "-e", `${commit}:${p}`])) ? await gitShow(`${commit}:${p}`) : ""] as const,
        ),
      ),
    );
  const readAll = async (paths: readonly string[]) =>
    new Map(await Promise.all(paths.map(async (p) => [p, await readFile(path.join(dir, p), "utf8")] as const)));

  // One save at a time, in this process (a queue) and across processes on this working copy (a lock
  // file in its git directory): the check that the files are unchanged, the writes and the commit are one step.
  let queue: Promise<unknown> = Promise.resolve();
  let lockPath: Promise<string> | undefined;
  const locked = async <T>(work: () => Promise<T>): Promise<T> => {
    lockPath ??= git(["rev-parse", "--absolute-git-dir"]).then((gitDir) => path.join(gitDir, "content-editor.lock"));
    const lock = await lockPath.catch((error) => {
      lockPath = undefined;
      throw error;
    });
    try {
      return await withFileLock(lock, work);
    } catch (error) {
      if (error instanceof LockTimeoutError) throw new StaleSnapshotError();
      throw error;
    }
  };
  // Reentrant: a commit inside `serialise` already holds both.
  const holding = new AsyncLocalStorage<true>();
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    if (holding.getStore()) return work();
    const held = () => locked(() => holding.run(true, work));
    const next = queue.then(held, held);
    queue = next.catch(() => {});
    return next;
  };

  let status: PublishStatus = { provider: "git", state: "idle" };
  let building: Promise<void> | null = null;
  let again = false;

  /** Builds the site from the working copy; a commit during a build gets a build of its own after it. */
  const startBuild = (commit: string) => {
    status = { provider: "git", state: "building", commit, at: new Date().toISOString() };
    if (building) {
      again = true;
      return;
    }
    building = (async () => {
      do {
        again = false;
        const head = status.commit!;
        const { code, output } = await rebuild!(dir).catch((error: unknown) => ({
          code: 1,
          output: error instanceof Error ? error.message : String(error),
        }));
        if (again) continue;
        if (code === 0) status = { provider: "git", state: "published", commit: head, at: new Date().toISOString() };
        else {
          const refusal = /✗ (\S+), line (\d+): (.+)/.exec(output);
          const files = refusal ? await readAll(ALL_PATHS).catch(() => new Map<string, string>()) : null;
          status = {
            provider: "git",
            state: "failed",
            commit: head,
            at: new Date().toISOString(),
            message: refusal
              ? refusal[3]
              : `The site could not be built, so the pages still show the previous texts. ${lastLines(output)}`,
            ...(refusal && files ? { text: textAtLine(files, refusal[1], Number(refusal[2])) ?? undefined } : {}),
          };
        }
      } while (again);
      building = null;
    })();
  };

  return {
    name: "git",
    async read(paths) {
      const [head, files] = await Promise.all([git(["rev-parse", "HEAD"]), readAll(paths)]);
      return { head, files };
    },
    commit: (snapshot: Snapshot, changed: ReadonlyMap<string, string>, message: string, author: Author) =>
      exclusive(async () => {
        const now = await readAll([...changed.keys()]);
        for (const [p, text] of now) if (text !== snapshot.files.get(p)) throw new StaleSnapshotError();
        // Each file whole or not at all: a load meanwhile reads the old text or the new one.
        for (const [p, text] of changed) await writeFileAtomic(path.join(dir, p), text);
        const paths = [...changed.keys()];
        await git(["add", "--", ...paths]);
        await git(
          [
            "commit",
            "--quiet",
            "--no-verify",
            "-m",
            message,
            "--author",
            `${author.name} <${author.email}>`,
            "--",
            ...paths,
          ],
          {
            GIT_COMMITTER_NAME: `${site.name} content editor`,
            GIT_COMMITTER_EMAIL: author.email,
          },
        );
        const commit = await git(["rev-parse", "HEAD"]);
        const at = new Date().toISOString();
        if (rebuild) startBuild(commit);
        else status = { provider: "git", state: "committed", commit, at };
        return { commit, at };
      }),
    async readCommit(commit, paths) {
      // Only a commit of the current branch: one on another branch (or none at all) is not the site's.
      if (!/^[0-9a-f]{40}$/.test(commit) || !(await gitYes(["merge-base", "--is-ancestor", commit, "HEAD"])))
        return null;
      if (!(await gitYes(["rev-parse", "--verify", "--quiet", `${commit}^`]))) return null;
      const parent = await git(["rev-parse", `${commit}^`]);
      const [before, after] = await Promise.all([readAt(parent, paths), readAt(commit, paths)]);
      return { parent, before, after };
    },
    async status() {
      return status;
    },
    serialise: exclusive,
  };
}

const lastLines = (output: string) =>
  output
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(-3)
    .join(" ");
