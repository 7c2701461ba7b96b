import { execFileSync, spawn } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * A throwaway copy of the project that is its own git repository, served by `npm start` (through
 * scripts/test/e2e-server.mjs, whose admin has a cost-4 fixture hash) on a port of its own, with the
 * content editor publishing into that repository: for the specs that commit texts or team members
 * (content-editor.spec.ts, team-member.spec.ts), never into this checkout.
 */
export interface ProjectCopy {
  /** The copy's folder. */
  project: string;
  /** git in the copy, its output trimmed. */
  git(...args: string[]): string;
  /** Stops the server and removes the copy and its data. */
  stop(): Promise<void>;
}

const ROOT = path.resolve(import.meta.dirname, "..");
// Not copied: installed packages and built assets are linked, the rest is this checkout's own state.
const SKIP = new Set(["node_modules", "public", ".git", ".data", ".astro", "test-results", "playwright-report"]);
const SITE_AUTHOR = {
  GIT_AUTHOR_NAME: "Site",
  GIT_AUTHOR_EMAIL: "site@example.com",
  GIT_COMMITTER_NAME: "Site",
  GIT_COMMITTER_EMAIL: "site@example.com",
};

export async function startProjectCopy(
  name: string,
  port: number,
  admin: { username: string; password: string },
): Promise<ProjectCopy> {
  const project = mkdtempSync(path.join(tmpdir(), `${name}-e2e-`));
  const dataDir = mkdtempSync(path.join(tmpdir(), `${name}-e2e-data-`));
  // The project as it is (sources, scripts, the last build), timestamps kept so `npm start` does not build first.
  for (const entry of readdirSync(ROOT))
    if (!SKIP.has(entry) && !entry.startsWith(".env") && !entry.startsWith(".dist"))
      cpSync(path.join(ROOT, entry), path.join(project, entry), { recursive: true, preserveTimestamps: true });
  symlinkSync(path.join(ROOT, "node_modules"), path.join(project, "node_modules"));
  symlinkSync(path.join(ROOT, "public"), path.join(project, "public"));
  const git = (...args: string[]) => execFileSync("git", args, { cwd: project, encoding: "utf8" }).trim();
  execFileSync("git", ["init", "--quiet", "--initial-branch=main"], { cwd: project });
  execFileSync("git", ["add", "."], { cwd: project });
  execFileSync("git", ["commit", "--quiet", "-m", "The site"], {
    cwd: project,
    env: { ...process.env, ...SITE_AUTHOR },
  });

  const server = spawn(process.execPath, ["scripts/test/e2e-server.mjs"], {
    cwd: project,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      ADMIN_USERNAME: admin.username,
      ADMIN_PASSWORD: admin.password,
      RATE_LIMIT: "off",
      CONTENT_PROVIDER: "git",
      CONTENT_GIT_DIR: project,
      ASTRO_TELEMETRY_DISABLED: "1",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Site ready")) resolve();
    };
    server.stdout!.on("data", onData);
    server.stderr!.on("data", onData);
    server.once("exit", (code) => reject(new Error(`npm start ended (${code}):\n${output}`)));
  });

  return {
    project,
    git,
    async stop() {
      if (server.exitCode === null) {
        const ended = new Promise((resolve) => server.once("exit", resolve));
        server.kill("SIGTERM");
        await ended;
      }
      rmSync(project, { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
