/**
 * The GitHub publisher against a server speaking the part of GitHub's API it calls, over a real bare
 * repository (github-server.ts): the content API's saves become commits there, authored by the
 * editor, one line per text; a branch that moved meanwhile is merged or answered 409.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createUser } from "#db/users.repository.ts";
import { hashPassword } from "#db/admins.ts";
import { ALL_PATHS } from "#functions/_lib/texts/texts.ts";
import { call, ORIGIN, setupApiDatabase } from "./harness.ts";
import { textRepo, type TextRepo } from "./git-fixture.ts";
import { githubServer, type GithubServer } from "./github-server.ts";
import { githubPublisher } from "../_lib/publish/github.ts";
import { PublishError, StaleSnapshotError } from "../_lib/publish/errors.ts";
import login from "../login.ts";
import content from "../content.ts";

const REPOSITORY = "bridgewise/site";
const TOKEN = "server-side-token";
const NL = "src/i18n/locales/nl.json";
const PASSWORD = "correct horse battery staple";

let t: Awaited<ReturnType<typeof setupApiDatabase>>;
let source: TextRepo;
let github: GithubServer;
let editor: string;

/** Someone else's commit on main, made the way a developer would (clone, change, push). */
function pushChange(file: string, change: (text: string) => string, name: string) {
  const clone = mkdtempSync(path.join(tmpdir(), "github-clone-"));
  const git = (...args: string[]) =>
    execFileSync("git", args, {
      cwd: clone,
      encoding: "utf8",
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: name,
        GIT_AUTHOR_EMAIL: `${name}@example.com`,
        GIT_COMMITTER_NAME: name,
        GIT_COMMITTER_EMAIL: `${name}@example.com`,
      },
    });
  git("clone", "--quiet", github.dir, ".");
  writeFileSync(path.join(clone, file), change(readFileSync(path.join(clone, file), "utf8")));
  git("commit", "--quiet", "-am", `Change by ${name}`);
  git("push", "--quiet", "origin", "main");
  rmSync(clone, { recursive: true, force: true });
}

const load = async () => (await call(content, "/api/content/texts", { cookie: editor })).json;
const save = (revisions: Record<string, string>, changes: object[]) =>
  call(content, "/api/content/texts", {
    method: "PUT",
    body: { revisions, changes },
    cookie: editor,
    headers: { origin: ORIGIN },
  });

beforeAll(async () => {
  t = await setupApiDatabase();
  source = textRepo();
  github = await githubServer(source.dir, { repository: REPOSITORY, token: TOKEN });
  Object.assign(process.env, {
    CONTENT_PROVIDER: "github",
    GITHUB_REPOSITORY: REPOSITORY,
    GITHUB_TOKEN: TOKEN,
    GITHUB_API_URL: github.url,
    GITHUB_BRANCH: "main",
  });
  await createUser(t.db, "marketing", await hashPassword(PASSWORD), "editor");
  const res = await call(login, "/api/login", { body: { username: "marketing", password: PASSWORD } });
  editor = res.headers.get("set-cookie")!.split(";")[0];
}, 60_000);
afterAll(async () => {
  for (const name of ["CONTENT_PROVIDER", "GITHUB_REPOSITORY", "GITHUB_TOKEN", "GITHUB_API_URL", "GITHUB_BRANCH"])
    delete process.env[name];
  await github?.close();
  source?.remove();
  await t?.destroy();
});

// Each test runs a dozen git commands through the GitHub stand-in. Beside the browser tests, in CI's
// PostgreSQL 15 pass, the undo test took 31 s against 20 s in the unit stage and met the 30 s default.
describe("the GitHub publisher", { timeout: 120_000 }, () => {
  test("reads the files at the branch's head with their blob ids as revisions", async () => {
    const body = await load();
    expect(body.texts.nl["hero.title"]).toBe("Breng je bedrijf");
    expect(body.revisions[NL]).toBe(github.git("rev-parse", `main:${NL}`));
    expect(body.publish).toEqual({ provider: "github", state: "idle" });
  });

  test("a save is one commit on main through blobs, a tree and a commit, authored by the editor, one line changed", async () => {
    const { revisions, texts } = await load();
    const res = await save(revisions, [
      { lang: "nl", key: "hero.title", was: texts.nl["hero.title"], value: "Breng jouw bedrijf" },
    ]);
    expect(res.status, res.text).toBe(200);
    expect(github.git("rev-parse", "main")).toBe(res.json.commit);
    expect(github.git("log", "-1", "--format=%an|%s", "main")).toBe("marketing|Texts: hero.title (Dutch)");
    expect(github.git("show", "--numstat", "--format=", "main")).toBe(`1\t1\t${NL}`);
    expect(github.git("show", `main:${NL}`)).toContain('"title": "Breng jouw bedrijf",');
    expect(res.json.publish).toEqual({
      provider: "github",
      state: "committed",
      commit: res.json.commit,
      at: res.json.at,
    });
    expect(github.requests).toEqual(
      expect.arrayContaining([
        `POST /repos/${REPOSITORY}/git/blobs`,
        `POST /repos/${REPOSITORY}/git/trees`,
        `POST /repos/${REPOSITORY}/git/commits`,
        `PATCH /repos/${REPOSITORY}/git/refs/heads/main`,
      ]),
    );
  });

  test("a new team member is one commit on main by the editor, team.json and the review record only", async () => {
    const { revisions } = await load();
    const res = await call(content, "/api/content/team", {
      method: "POST",
      body: {
        revisions,
        member: {
          name: { en: "Lotte de Vries", nl: "Lotte de Vries", fa: "لوته د فریس" },
          role: { en: "Consultant", nl: "Adviseur", fa: "مشاور" },
          bio: {
            en: "Helps founders settle.",
            nl: "Helpt oprichters zich te vestigen.",
            fa: "به بنیان‌گذاران کمک می‌کند.",
          },
          languages: ["nl"],
          services: ["startup-visa"],
        },
      },
      cookie: editor,
      headers: { origin: ORIGIN },
    });
    expect(res.status, res.text).toBe(201);
    expect(github.git("rev-parse", "main")).toBe(res.json.commit);
    expect(github.git("log", "-1", "--format=%an|%s", "main")).toBe(
      "marketing|Team: add Lotte de Vries (lotte-de-vries)",
    );
    expect(github.git("show", "--name-only", "--format=", "main").split("\n").sort()).toEqual([
      "src/data/team.json",
      "src/i18n/reviewed.json",
    ]);
    expect(JSON.parse(github.git("show", "main:src/data/team.json")).at(-1).id).toBe("lotte-de-vries");
    expect(res.json.publish).toMatchObject({ provider: "github", state: "committed", commit: res.json.commit });
  });

  test("a commit that lands between reading and moving the branch: GitHub answers 422, the save is read again and merged", async () => {
    const { revisions, texts } = await load();
    github.beforeNextRefUpdate = () =>
      pushChange(NL, (text) => text.replace('"close": "Sluiten"', '"close": "Sluit"'), "developer");
    const res = await save(revisions, [
      { lang: "nl", key: "hero.badge", was: texts.nl["hero.badge"], value: "Van Teheran en Amsterdam naar Europa" },
    ]);
    expect(res.status, res.text).toBe(200);
    expect(github.git("log", "-2", "--format=%an", "main")).toBe("marketing\ndeveloper");
    const now = github.git("show", `main:${NL}`);
    expect(now).toContain('"close": "Sluit"');
    expect(now).toContain('"badge": "Van Teheran en Amsterdam naar Europa",');
  });

  test("the same text changed on the branch since it was loaded: 409 with the other text, nothing committed", async () => {
    const { revisions, texts } = await load();
    pushChange(NL, (text) => text.replace('"contactUs": "Neem contact op"', '"contactUs": "Bel ons"'), "colleague");
    const head = github.git("rev-parse", "main");
    const res = await save(revisions, [
      { lang: "nl", key: "hero.contactUs", was: texts.nl["hero.contactUs"], value: "Mail ons" },
    ]);
    expect(res.status).toBe(409);
    expect(res.json.conflicts).toEqual([{ lang: "nl", key: "hero.contactUs", yours: "Mail ons", theirs: "Bel ons" }]);
    expect(github.git("rev-parse", "main")).toBe(head);
  });

  test("commit() on a stale snapshot throws StaleSnapshotError; a wrong token is a PublishError", async () => {
    const publisher = githubPublisher({ repository: REPOSITORY, branch: "main", token: TOKEN, apiUrl: github.url });
    const snapshot = await publisher.read(ALL_PATHS);
    pushChange(NL, (text) => text.replace('"tagline": "', '"tagline": "Echt: '), "colleague");
    const changed = new Map([[NL, snapshot.files.get(NL)!.replace("Sluit", "Dicht")]]);
    await expect(
      publisher.commit(snapshot, changed, "x", { name: "a", email: "a@example.com" }),
    ).rejects.toBeInstanceOf(StaleSnapshotError);
    const wrong = githubPublisher({ repository: REPOSITORY, branch: "main", token: "wrong", apiUrl: github.url });
    await expect(wrong.read(ALL_PATHS)).rejects.toThrow(PublishError);
    await expect(wrong.read(ALL_PATHS)).rejects.toThrow("GitHub refused to read the branch (401: Bad credentials)");
  });

  test("a publish undone through the API: a new commit on main restores the text; an unknown commit is refused", async () => {
    const { revisions, texts } = await load();
    const was = texts.nl["hero.badge"];
    const published = await save(revisions, [{ lang: "nl", key: "hero.badge", was, value: "Naar heel Europa" }]);
    expect(published.status, published.text).toBe(200);
    const publisher = githubPublisher({ repository: REPOSITORY, branch: "main", token: TOKEN, apiUrl: github.url });
    const files = await publisher.readCommit(published.json.commit, ALL_PATHS);
    expect(files?.parent).toBe(github.git("rev-parse", `${published.json.commit}^`));
    expect(files?.after.get(NL)).toContain('"badge": "Naar heel Europa"');
    expect(files?.before.get(NL)).not.toContain('"badge": "Naar heel Europa"');
    expect(await publisher.readCommit("0".repeat(40), ALL_PATHS)).toBeNull();

    const undone = await call(content, "/api/content/undo", {
      method: "POST",
      body: { commit: published.json.commit },
      cookie: editor,
      headers: { origin: ORIGIN },
    });
    expect(undone.status, undone.text).toBe(200);
    expect(github.git("rev-parse", "main")).toBe(undone.json.commit);
    expect(github.git("rev-parse", `${undone.json.commit}^`)).toBe(published.json.commit);
    expect((await load()).texts.nl["hero.badge"]).toBe(was);
  });

  test("GitHub out of reach: 503 in plain words, nothing saved", async () => {
    // Port 9 (discard): nothing listens there.
    process.env.GITHUB_API_URL = "http://127.0.0.1:9";
    try {
      const res = await call(content, "/api/content/texts", { cookie: editor });
      expect(res.status).toBe(503);
      expect(res.json.message).toBe(
        "The site's texts cannot be reached just now. Nothing was saved; please try again in a minute.",
      );
    } finally {
      process.env.GITHUB_API_URL = github.url;
    }
  });
});
