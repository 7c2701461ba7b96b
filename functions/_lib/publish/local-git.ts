/**
 * The local publisher: reads the texts from a git working copy and commits a save to its current
 * branch with the editor as author (only the saved files; whatever else is staged stays staged).
 * With `rebuild`, `npm start` rebuilds the site after each commit (scripts/build/build.mjs: a failed build
 * keeps the last good site) and the status tells the editor "published at …" or the build's refusal.
 */
import { execFile, spawn } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import type { PublishStatus } from "#shared/api/content.ts";
import { site } from "#config/site.ts";
import { ALL_PATHS, textAtLine } from "#tools/editor/texts.ts";
import { PublishError, StaleSnapshotError, type Author, type Publisher, type Snapshot } from "./provider.ts";

const run = promisify(execFile);

export function localGitPublisher({ dir, rebuild }: { dir: string; rebuild: boolean }): Publisher {
  const git = async (args: string[], env: Record<string, string> = {}) => {
    try {
      return (
        await run("git", args, { cwd: dir, env: { ...process.env, ...env }, maxBuffer: 8 * 1024 * 1024 })
      ).stdout.trim();
    } catch (error) {
      const stderr = (error as { stderr?: string }).stderr ?? String(error);
      throw new PublishError(`git ${args[0]} failed in ${dir}: ${stderr.trim()}`);
    }
  };
  const readAll = async (paths: readonly string[]) =>
    new Map(await Promise.all(paths.map(async (p) => [p, await readFile(path.join(dir, p), "utf8")] as const)));

  // One save at a time in this process: the check that the files are unchanged and the commit are one step.
  let queue: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
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
        const { code, output } = await buildSite(dir);
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
        for (const [p, text] of changed) await writeFile(path.join(dir, p), text);
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
    async status() {
      return status;
    },
  };
}

/** `node scripts/build/build.mjs` in the working copy (the copy check first, as `npm run build` does). */
function buildSite(dir: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ["--disable-warning=ExperimentalWarning", "scripts/build/check-copy.ts", "--before-build"],
      { cwd: dir, env: { ...process.env, ASTRO_TELEMETRY_DISABLED: "1", FORCE_COLOR: "0" } },
    );
    let output = "";
    const collect = (chunk: Buffer) => {
      output = (output + chunk.toString("utf8")).slice(-20_000);
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.on("close", (code) => {
      if (code !== 0) return resolve({ code: code ?? 1, output });
      const build = spawn(process.execPath, ["scripts/build/build.mjs"], {
        cwd: dir,
        env: { ...process.env, ASTRO_TELEMETRY_DISABLED: "1", FORCE_COLOR: "0" },
      });
      build.stdout.on("data", collect);
      build.stderr.on("data", collect);
      build.on("close", (status) => resolve({ code: status ?? 1, output }));
    });
  });
}

const lastLines = (output: string) =>
  output
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(-3)
    .join(" ");
