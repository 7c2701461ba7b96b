/**
 * The local publisher against a real git working copy: commits with the editor as author, refuses a
 * stale snapshot, and after a commit runs the site's build, reporting "published" or the build's
 * refusal with the text it names.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, test, vi } from "vitest";
import { ALL_PATHS } from "../texts/texts.ts";
import { textRepo, type TextRepo } from "#functions/_tests/git-fixture.ts";
import { localGitPublisher } from "./local-git.ts";
import { StaleSnapshotError } from "./errors.ts";
import type { Rebuild, RebuildResult } from "./rebuild.ts";

const NL = "src/i18n/locales/nl.json";
const author = { name: "marketing", email: "marketing@example.com" };
let repo: TextRepo;
afterEach(() => repo?.remove());

/** A rebuild hook standing in for the site's (scripts/runtime/rebuild.mjs): it answers `result` after `ms`. */
const hook =
  (result: RebuildResult, ms = 50): Rebuild =>
  () =>
    new Promise((resolve) => setTimeout(() => resolve(result), ms));

describe("the local git publisher", () => {
  test("commits only the saved file, with the editor as author, and refuses a snapshot the file has moved on from", async () => {
    repo = textRepo();
    writeFileSync(path.join(repo.dir, "notes.txt"), "a developer's unsaved work\n");
    const publisher = localGitPublisher({ dir: repo.dir, rebuild: null });
    const snapshot = await publisher.read(ALL_PATHS);
    const changed = new Map([[NL, snapshot.files.get(NL)!.replace('"close": "Sluiten"', '"close": "Sluit"')]]);
    const { commit } = await publisher.commit(snapshot, changed, "Texts: general.close (Dutch)", author);
    expect(repo.git("log", "-1", "--format=%H|%an <%ae>|%s")).toBe(
      `${commit}|marketing <marketing@example.com>|Texts: general.close (Dutch)`,
    );
    expect(repo.git("show", "--numstat", "--format=", commit)).toBe(`1\t1\t${NL}`);
    expect(repo.git("status", "--porcelain")).toBe("?? notes.txt");
    expect(await publisher.status()).toEqual({ provider: "git", state: "committed", commit, at: expect.any(String) });
    await expect(publisher.commit(snapshot, changed, "again", author)).rejects.toBeInstanceOf(StaleSnapshotError);
  });

  test("with rebuild: building, then published at the build's end", async () => {
    repo = textRepo();
    const asked: string[] = [];
    let finish = () => {};
    const publisher = localGitPublisher({
      dir: repo.dir,
      rebuild: (dir) => {
        asked.push(dir);
        return new Promise((resolve) => (finish = () => resolve({ code: 0, output: "" })));
      },
    });
    const snapshot = await publisher.read(ALL_PATHS);
    const changed = new Map([[NL, snapshot.files.get(NL)!.replace('"close": "Sluiten"', '"close": "Sluit"')]]);
    const { commit } = await publisher.commit(snapshot, changed, "Texts", author);
    expect((await publisher.status()).state).toBe("building");
    finish();
    await vi.waitFor(async () => expect((await publisher.status()).state).toBe("published"), { timeout: 20_000 });
    expect(await publisher.status()).toEqual({ provider: "git", state: "published", commit, at: expect.any(String) });
    expect(asked).toEqual([repo.dir]);
  });

  test("with rebuild: the build's refusal in plain words, with the text it names", async () => {
    repo = textRepo();
    const line =
      repo
        .read(NL)
        .split("\n")
        .findIndex((l) => l.includes('"close"')) + 1;
    const refusal = `Copy check\n✗ ${NL}, line ${line}: “general.close” is empty. Write the Dutch text.\n`;
    const publisher = localGitPublisher({ dir: repo.dir, rebuild: hook({ code: 1, output: refusal }) });
    const snapshot = await publisher.read(ALL_PATHS);
    const changed = new Map([[NL, snapshot.files.get(NL)!.replace('"close": "Sluiten"', '"close": "Dicht"')]]);
    await publisher.commit(snapshot, changed, "Texts", author);
    await vi.waitFor(async () => expect((await publisher.status()).state).toBe("failed"), { timeout: 20_000 });
    expect(await publisher.status()).toMatchObject({
      message: "“general.close” is empty. Write the Dutch text.",
      text: { lang: "nl", key: "general.close" },
    });
  });
});

describe("the environment of git (issue 29: a polluted NODE_OPTIONS ran in the rebuild's child process)", () => {
  afterEach(() => delete (Object.prototype as Record<string, unknown>).GIT_DIR);

  test("git gets an environment from an allowlist: a GIT_DIR written onto Object.prototype does not reach it", async () => {
    repo = textRepo();
    const publisher = localGitPublisher({ dir: repo.dir, rebuild: null });
    const snapshot = await publisher.read(ALL_PATHS);
    (Object.prototype as Record<string, unknown>).GIT_DIR = "/nonexistent";
    const changed = new Map([[NL, snapshot.files.get(NL)!.replace('"close": "Sluiten"', '"close": "Sluit"')]]);
    const { commit } = await publisher.commit(snapshot, changed, "Texts", author);
    delete (Object.prototype as Record<string, unknown>).GIT_DIR; // (the test's own git copies its environment)
    expect(repo.git("log", "-1", "--format=%H")).toBe(commit);
  });
});
