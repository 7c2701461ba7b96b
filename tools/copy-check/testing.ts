/** Test helpers: a throwaway copy of the project's copy and the code that reads it (src/, functions/, public/). */
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export interface ProjectCopy {
  root: string;
  read(file: string): string;
  write(file: string, text: string): void;
  /** Replaces `from` (which must occur) by `to` in a file. */
  replace(file: string, from: string | RegExp, to: string): void;
  /** Changes a JSON file through its parsed value (written back formatted like the originals). */
  editJson<T>(file: string, change: (value: T) => void): void;
  /** 1-based line of the first line containing `text`. */
  lineOf(file: string, text: string): number;
  remove(): void;
}

/** Copies src/ and functions/ (and links public/, and copies `extra` entries) into a temporary folder. */
export function copyProject(extra: string[] = []): ProjectCopy {
  const root = mkdtempSync(path.join(tmpdir(), "copy-check-"));
  for (const dir of ["src", "functions"]) cpSync(path.join(repoRoot, dir), path.join(root, dir), { recursive: true });
  symlinkSync(path.join(repoRoot, "public"), path.join(root, "public"));
  for (const entry of extra) cpSync(path.join(repoRoot, entry), path.join(root, entry), { recursive: true });
  const full = (file: string) => path.join(root, file);
  const copy: ProjectCopy = {
    root,
    read: (file) => readFileSync(full(file), "utf8"),
    write: (file, text) => writeFileSync(full(file), text),
    replace(file, from, to) {
      const text = copy.read(file);
      const found = typeof from === "string" ? text.includes(from) : from.test(text);
      if (!found) throw new Error(`${file} does not contain ${String(from)}`);
      copy.write(file, text.replace(from, to));
    },
    editJson<T>(file: string, change: (value: T) => void) {
      const value = JSON.parse(copy.read(file)) as T;
      change(value);
      copy.write(file, `${JSON.stringify(value, null, 2)}\n`);
    },
    lineOf(file, text) {
      const index = copy
        .read(file)
        .split("\n")
        .findIndex((line) => line.includes(text));
      if (index < 0) throw new Error(`${file} has no line with ${text}`);
      return index + 1;
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
  return copy;
}
