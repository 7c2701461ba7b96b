/**
 * The local publisher against a real git working copy: commits with the editor as author, refuses a
 * stale snapshot, and after a commit runs the site's build, reporting "published" or the build's
 * refusal with the text it names.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
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
  mkdirSync(path.join(repo.dir, "scripts"), { recursive: true });
  writeFileSync(path.join(repo.dir, "scripts/check-copy.ts"), checkCopy);
  writeFileSync(path.join(repo.dir, "scripts/build.mjs"), build);
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

describe("the environment of the publisher's child processes (issue 29: a polluted NODE_OPTIONS ran in the rebuild)", () => {
  const POLLUTED = ["NODE_OPTIONS", "GIT_DIR", "POLLUTED"] as const;
  afterEach(() => {
    for (const name of POLLUTED) delete (Object.prototype as Record<string, unknown>)[name];
    delete process.env.JWT_SECRET_FOR_TEST;
  });

  test("git and the rebuild get an environment from an allowlist: no inherited key, no secret, no NODE_OPTIONS", async () => {
    repo = textRepo();
    const seen = path.join(repo.dir, "child-env.json");
    // The stand-in copy check records the environment it was given.
    scripts(`process.getBuiltinModule("node:fs").writeFileSync(${JSON.stringify(seen)}, JSON.stringify(process.env));`);
    const publisher = localGitPublisher({ dir: repo.dir, rebuild: true });
    const snapshot = await publisher.read(ALL_PATHS);
    // What an editor's `__proto__.NODE_OPTIONS` did before the content API refused it, and a secret of the server's own.
    const proto = Object.prototype as Record<string, unknown>;
    proto.NODE_OPTIONS = "--import=data:text/javascript,process.exit(7)";
    proto.GIT_DIR = "/nonexistent";
    proto.POLLUTED = "yes";
    process.env.JWT_SECRET_FOR_TEST = "secret";
    const changed = new Map([[NL, snapshot.files.get(NL)!.replace('"close": "Sluiten"', '"close": "Sluit"')]]);
    const { commit } = await publisher.commit(snapshot, changed, "Texts", author);
    // (The copy check has started by now; the test's own git calls copy the environment.)
    for (const name of POLLUTED) delete proto[name];
    expect(repo.git("log", "-1", "--format=%H")).toBe(commit);
    await vi.waitFor(async () => expect((await publisher.status()).state).toBe("published"), { timeout: 20_000 });
    const env = JSON.parse(readFileSync(seen, "utf8")) as Record<string, string>;
    expect(env.NODE_OPTIONS).toBeUndefined();
    expect(env.GIT_DIR).toBeUndefined();
    expect(env.POLLUTED).toBeUndefined();
    expect(env.JWT_SECRET_FOR_TEST).toBeUndefined();
    expect(env.PATH).toBe(process.env.PATH);
    expect(env.ASTRO_TELEMETRY_DISABLED).toBe("1");
  });
});
