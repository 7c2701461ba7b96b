/**
 * The local publisher against a real git working copy: commits with the editor as author, refuses a
 * stale snapshot, and after a commit runs the site's build, reporting "published" or the build's
 * refusal with the text it names.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, test, vi } from "vitest";
import { ALL_PATHS } from "#tools/editor/texts.ts";
import { textRepo, type TextRepo } from "#functions/_tests/git-fixture.ts";
import { localGitPublisher } from "./local-git.ts";
import { StaleSnapshotError } from "./provider.ts";

const NL = "src/i18n/locales/nl.json";
const author = { name: "marketing", email: "marketing@example.com" };
let repo: TextRepo;
afterEach(() => repo?.remove());

/** A stand-in for the project's scripts in the throwaway repository: the copy check and the build. */
function scripts(checkCopy: string, build = "process.exit(0);") {
  mkdirSync(path.join(repo.dir, "scripts/build"), { recursive: true });
  writeFileSync(path.join(repo.dir, "scripts/build/check-copy.ts"), checkCopy);
  writeFileSync(path.join(repo.dir, "scripts/build/build.mjs"), build);
}

describe("the local git publisher", () => {
  test("commits only the saved file, with the editor as author, and refuses a snapshot the file has moved on from", async () => {
    repo = textRepo();
    writeFileSync(path.join(repo.dir, "notes.txt"), "a developer's unsaved work\n");
    const publisher = localGitPublisher({ dir: repo.dir, rebuild: false });
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
    scripts("process.exit(0);", "setTimeout(() => process.exit(0), 50);");
    const publisher = localGitPublisher({ dir: repo.dir, rebuild: true });
    const snapshot = await publisher.read(ALL_PATHS);
    const changed = new Map([[NL, snapshot.files.get(NL)!.replace('"close": "Sluiten"', '"close": "Sluit"')]]);
    const { commit } = await publisher.commit(snapshot, changed, "Texts", author);
    expect((await publisher.status()).state).toBe("building");
    await vi.waitFor(async () => expect((await publisher.status()).state).toBe("published"), { timeout: 20_000 });
    expect(await publisher.status()).toEqual({ provider: "git", state: "published", commit, at: expect.any(String) });
  });

  test("with rebuild: the build's refusal in plain words, with the text it names", async () => {
    repo = textRepo();
    const line =
      repo
        .read(NL)
        .split("\n")
        .findIndex((l) => l.includes('"close"')) + 1;
    scripts(`console.log("✗ ${NL}, line ${line}: “general.close” is empty. Write the Dutch text."); process.exit(1);`);
    const publisher = localGitPublisher({ dir: repo.dir, rebuild: true });
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
