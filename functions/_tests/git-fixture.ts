/** Throwaway git repositories holding the site's text files, for the content editor's tests (real git). */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ALL_PATHS } from "#functions/_lib/texts/texts.ts";

const repoRoot = path.resolve(import.meta.dirname, "../..");

export interface TextRepo {
  dir: string;
  git(...args: string[]): string;
  read(file: string): string;
  /** Commits a change to a file as someone working beside the editor would (a developer, another save). */
  commitAs(file: string, text: string, name: string): void;
  remove(): void;
}

/** A working copy with one commit holding the site's current text files; `bare` also makes a bare clone of it. */
export function textRepo(): TextRepo {
  const dir = mkdtempSync(path.join(tmpdir(), "content-repo-"));
  for (const file of ALL_PATHS) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    cpSync(path.join(repoRoot, file), path.join(dir, file));
  }
  const git = (...args: string[]) =>
    execFileSync("git", args, {
      cwd: dir,
      encoding: "utf8",
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: "Site",
        GIT_AUTHOR_EMAIL: "site@example.com",
        GIT_COMMITTER_NAME: "Site",
        GIT_COMMITTER_EMAIL: "site@example.com",
      },
    }).trim();
  git("init", "--quiet", "--initial-branch=main");
  git("add", ".");
  git("commit", "--quiet", "-m", "The site's texts");
  return {
    dir,
    git,
    read: (file) => readFileSync(path.join(dir, file), "utf8"),
    commitAs(file, text, name) {
      writeFileSync(path.join(dir, file), text);
      git("commit", "--quiet", "-am", `Change by ${name}`, "--author", `${name} <${name}@example.com>`);
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
