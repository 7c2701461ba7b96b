/**
 * The content editor's API against a real git working copy: texts in, checked, committed with the
 * editor as author, one line per text; concurrent saves merged or refused with the other's text.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createUser } from "#db/users.repository.ts";
import { revisionOf } from "#functions/_lib/texts/texts.ts";
import { site } from "#config/site.ts";
import { call, ORIGIN, setupApiDatabase } from "./harness.ts";
import { textRepo, type TextRepo } from "./git-fixture.ts";
import login from "../login.ts";
import content from "../content.ts";
import { fixtureAdmin, fixtureHash } from "./fixture-users.ts";

const PASSWORD = "correct horse battery staple";
const NL = "src/i18n/locales/nl.json";
const FA = "src/i18n/locales/fa.json";
const REVIEWED = "src/i18n/reviewed.json";

let t: Awaited<ReturnType<typeof setupApiDatabase>>;
let repo: TextRepo;
let editor: string;
let other: string;

async function signIn(username: string) {
  const res = await call(login, "/api/login", { body: { username, password: PASSWORD } });
  expect(res.status).toBe(200);
  return res.headers.get("set-cookie")!.split(";")[0];
}

const load = async (cookie = editor) => {
  const res = await call(content, "/api/content/texts", { cookie });
  expect(res.status).toBe(200);
  return res.json;
};

const save = (cookie: string, revisions: Record<string, string>, changes: object[]) =>
  call(content, "/api/content/texts", {
    method: "PUT",
    body: { revisions, changes },
    cookie,
    headers: { origin: ORIGIN },
  });

/** Lines added and removed per file by a commit: "1\t1\tsrc/i18n/locales/nl.json". */
const numstat = (commit: string) => repo.git("show", "--numstat", "--format=", commit).split("\n").filter(Boolean);

beforeAll(async () => {
  t = await setupApiDatabase();
  repo = textRepo();
  process.env.CONTENT_PROVIDER = "git";
  process.env.CONTENT_GIT_DIR = repo.dir;
  await fixtureAdmin(t.db, "admin", PASSWORD);
  await createUser(t.db, "marketing", await fixtureHash(PASSWORD), "editor");
  await createUser(t.db, "translator", await fixtureHash(PASSWORD), "editor");
  editor = await signIn("marketing");
  other = await signIn("translator");
}, 60_000);
afterAll(async () => {
  delete process.env.CONTENT_PROVIDER;
  delete process.env.CONTENT_GIT_DIR;
  repo?.remove();
  await t?.destroy();
});

describe("GET /api/content/texts", () => {
  test("answers 401 without a session, and the texts to an editor and to an admin", async () => {
    expect((await call(content, "/api/content/texts")).status).toBe(401);
    const admin = await signIn("admin");
    expect((await call(content, "/api/content/texts", { cookie: admin })).status).toBe(200);
    const body = await load();
    expect(body.languages).toEqual(["en", "nl", "fa"]);
    expect(body.texts.nl["hero.title"]).toBe("Breng je bedrijf");
    expect(body.texts.fa["testimonials:sara-rahimi.author"]).toBe("سارا رحیمی");
    const home = body.pages.find((p: any) => p.name === "Home page");
    expect(home.sections[0]).toEqual({
      name: "hero",
      keys: expect.arrayContaining(["hero.title", "hero.stats.capital"]),
    });
    expect(body.collections.team[0]).toEqual({
      id: "nasrin-farahani",
      label: "Nasrin Farahani",
      fields: { name: "team:nasrin-farahani.name", role: "team:nasrin-farahani.role", bio: "team:nasrin-farahani.bio" },
    });
    // A revision is the file's git blob id (what GitHub's API calls its sha).
    expect(body.revisions[NL]).toBe(repo.git("hash-object", NL));
    expect(body.rules.lengthBudgets.length).toBeGreaterThan(0);
  });
});

describe("PUT /api/content/texts", () => {
  test("commits a Dutch text as a one-line diff with the editor as author and a message naming it", async () => {
    const { revisions } = await load();
    const res = await save(editor, revisions, [
      { lang: "nl", key: "hero.title", was: "Breng je bedrijf", value: "Breng jouw bedrijf" },
    ]);
    expect(res.status, res.text).toBe(200);
    expect(res.json.commit).toBe(repo.git("rev-parse", "HEAD"));
    expect(repo.git("log", "-1", "--format=%an <%ae>|%s")).toBe(
      `marketing <marketing@editors.${new URL(site.url).hostname}>|Texts: hero.title (Dutch)`,
    );
    expect(numstat(res.json.commit)).toEqual([`1\t1\t${NL}`]);
    expect(repo.read(NL)).toContain('"title": "Breng jouw bedrijf",');
    expect(res.json.revisions[NL]).toBe(revisionOf(repo.read(NL)));
    expect(repo.git("status", "--porcelain")).toBe("");
  });

  test("refuses a translation that lost its placeholder, field by field, and commits nothing", async () => {
    const { revisions } = await load();
    const head = repo.git("rev-parse", "HEAD");
    const res = await save(editor, revisions, [
      { lang: "nl", key: "general.homeLink", was: "Startpagina van {{brand}}", value: "Startpagina van {brand}" },
    ]);
    expect(res.status).toBe(400);
    expect(res.json.errors["nl:general.homeLink"]).toEqual([
      "“general.homeLink” has “{brand}”: a placeholder needs two braces on each side, {{brand}}. As it is, visitors would see “{brand}”.",
      "“general.homeLink” lacks {{brand}}, which the English has; that part would be missing from the page. Add it.",
    ]);
    expect(repo.git("rev-parse", "HEAD")).toBe(head);
  });

  test("refuses a new placeholder in English that the page does not fill, and the translations it breaks", async () => {
    const { revisions, texts } = await load();
    const res = await save(editor, revisions, [
      { lang: "en", key: "hero.badge", was: texts.en["hero.badge"], value: "From {{city}} to all of Europe" },
    ]);
    expect(res.status).toBe(400);
    expect(res.json.errors["en:hero.badge"][0]).toContain("uses {{city}}, but the page fills in only {{brand}}");
    expect(res.json.errors["nl:hero.badge"][0]).toContain("lacks {{city}}");
    expect(res.json.errors["fa:hero.badge"][0]).toContain("lacks {{city}}");
  });

  test("writes Persian with Persian letters: Arabic ي and ك become ی and ک", async () => {
    const { revisions, texts } = await load();
    const res = await save(editor, revisions, [
      { lang: "fa", key: "hero.title", was: texts.fa["hero.title"], value: "كسب‌وكار خود را ببريد" },
    ]);
    expect(res.status, res.text).toBe(200);
    expect(res.json.saved).toEqual([{ lang: "fa", key: "hero.title", value: "کسب‌وکار خود را ببرید" }]);
    expect(repo.read(FA)).toContain('"title": "کسب‌وکار خود را ببرید",');
    expect(numstat(res.json.commit)).toEqual([`1\t1\t${FA}`]);
  });

  test("refuses English left in a Dutch text and a button over its length budget", async () => {
    const { revisions, texts } = await load();
    const res = await save(editor, revisions, [
      { lang: "nl", key: "hero.badge", was: texts.nl["hero.badge"], value: "Learn more about the visa" },
      {
        lang: "en",
        key: "hero.contactUs",
        was: texts.en["hero.contactUs"],
        value: "Get in touch with our friendly team today",
      },
    ]);
    expect(res.status).toBe(400);
    expect(res.json.errors["nl:hero.badge"][0]).toContain("looks left in English");
    expect(res.json.errors["en:hero.contactUs"][0]).toContain("buttons hold at most 28");
  });

  test("two editors change different texts from the same revision: both changes survive", async () => {
    const { revisions, texts } = await load();
    const first = await save(editor, revisions, [
      { lang: "nl", key: "hero.badge", was: texts.nl["hero.badge"], value: "Van Teheran en Amsterdam naar Europa" },
    ]);
    expect(first.status, first.text).toBe(200);
    const second = await save(other, revisions, [
      { lang: "nl", key: "hero.contactUs", was: texts.nl["hero.contactUs"], value: "Neem nu contact op" },
    ]);
    expect(second.status, second.text).toBe(200);
    const now = (await load()).texts.nl;
    expect(now["hero.badge"]).toBe("Van Teheran en Amsterdam naar Europa");
    expect(now["hero.contactUs"]).toBe("Neem nu contact op");
    expect(repo.git("log", "-2", "--format=%an")).toBe("translator\nmarketing");
  });

  test("two editors change the same text: the second is told, with the first one's text, and nothing is lost", async () => {
    const { revisions, texts } = await load();
    const was = texts.nl["hero.exploreServices"];
    const first = await save(editor, revisions, [
      { lang: "nl", key: "hero.exploreServices", was, value: "Onze diensten" },
    ]);
    expect(first.status).toBe(200);
    const head = repo.git("rev-parse", "HEAD");
    const second = await save(other, revisions, [
      { lang: "nl", key: "hero.exploreServices", was, value: "Alle diensten" },
    ]);
    expect(second.status).toBe(409);
    expect(second.json.conflicts).toEqual([
      { lang: "nl", key: "hero.exploreServices", yours: "Alle diensten", theirs: "Onze diensten" },
    ]);
    expect(repo.git("rev-parse", "HEAD")).toBe(head);
    expect((await load()).texts.nl["hero.exploreServices"]).toBe("Onze diensten");
  });

  test("a developer's commit to the same file meanwhile is merged with the editor's change", async () => {
    const { revisions, texts } = await load();
    repo.commitAs(NL, repo.read(NL).replace('"close": "Sluiten"', '"close": "Sluit"'), "developer");
    const res = await save(editor, revisions, [
      { lang: "nl", key: "hero.stats.countries", was: texts.nl["hero.stats.countries"], value: "Landen wereldwijd" },
    ]);
    expect(res.status, res.text).toBe(200);
    expect(repo.read(NL)).toContain('"close": "Sluit"');
    expect(repo.read(NL)).toContain('"countries": "Landen wereldwijd"');
  });

  test("answers 400 for a text the site does not have", async () => {
    const { revisions } = await load();
    const res = await save(editor, revisions, [{ lang: "nl", key: "hero.nothing", was: "", value: "x" }]);
    expect(res.status).toBe(400);
    expect(res.json.message).toBe("There is no text “hero.nothing” on the site.");
  });
});

describe("review flags", () => {
  test("a changed English text flags its Dutch and Persian; marking them reviewed commits reviewed.json", async () => {
    const { revisions, texts, reviews } = await load();
    expect(reviews.filter((r: any) => r.key === "hero.stats.capital")).toEqual([]);
    const res = await save(editor, revisions, [
      {
        lang: "en",
        key: "hero.stats.capital",
        was: texts.en["hero.stats.capital"],
        value: "Capital clients raised",
      },
    ]);
    expect(res.status, res.text).toBe(200);
    expect(res.json.reviews.filter((r: any) => r.key === "hero.stats.capital")).toEqual([
      { lang: "nl", key: "hero.stats.capital", reason: "changed" },
      { lang: "fa", key: "hero.stats.capital", reason: "changed" },
    ]);
    const marked = await call(content, "/api/content/reviewed", {
      body: { texts: [{ lang: "nl", key: "hero.stats.capital" }] },
      cookie: other,
      headers: { origin: ORIGIN },
    });
    expect(marked.status, marked.text).toBe(200);
    expect(marked.json.reviews.filter((r: any) => r.key === "hero.stats.capital")).toEqual([
      { lang: "fa", key: "hero.stats.capital", reason: "changed" },
    ]);
    expect(numstat(marked.json.commit)).toEqual([`1\t1\t${REVIEWED}`]);
    expect(repo.git("log", "-1", "--format=%an|%s")).toBe(
      "translator|Reviewed translations: hero.stats.capital (Dutch)",
    );
    // Saving the Persian translation counts as reviewing it.
    const next = await load();
    const fa = await save(editor, next.revisions, [
      {
        lang: "fa",
        key: "hero.stats.capital",
        was: next.texts.fa["hero.stats.capital"],
        value: "سرمایهٔ جذب‌شدهٔ مشتریان",
      },
    ]);
    expect(fa.status, fa.text).toBe(200);
    expect(fa.json.reviews.filter((r: any) => r.key === "hero.stats.capital")).toEqual([]);
  });
});

describe("prototype keys (issue 29: `__proto__.X` wrote X onto Object.prototype; 12 of 12 such keys answered 500)", () => {
  const prototypeNames = () => Object.getOwnPropertyNames(Object.prototype).sort();
  const HOSTILE = [
    "toString",
    "constructor",
    "__proto__",
    "hasOwnProperty",
    "__proto__.polluted",
    "__proto__.NODE_OPTIONS",
    "constructor.prototype.polluted",
    "prototype",
    "hero.__proto__",
    "hero.__proto__.polluted",
    "hero.constructor",
    "testimonials:__proto__.author",
  ];

  test.each(HOSTILE.flatMap((key) => ["nl", "fa"].map((lang) => [key, lang])))(
    "POST /api/content/reviewed with the key %s (%s) answers 400 and commits nothing",
    async (key, lang) => {
      const before = prototypeNames();
      const head = repo.git("rev-parse", "HEAD");
      const res = await call(content, "/api/content/reviewed", {
        body: { texts: [{ lang, key }] },
        cookie: editor,
        headers: { origin: ORIGIN },
      });
      expect(res.status, res.text).toBe(400);
      expect(prototypeNames()).toEqual(before);
      expect(repo.git("rev-parse", "HEAD")).toBe(head);
    },
  );

  test.each(HOSTILE.flatMap((key) => ["en", "nl", "fa"].map((lang) => [key, lang])))(
    "PUT /api/content/texts with the key %s (%s) answers 400, changes no prototype and commits nothing",
    async (key, lang) => {
      const before = prototypeNames();
      const { revisions } = await load();
      const head = repo.git("rev-parse", "HEAD");
      const res = await save(editor, revisions, [
        { lang, key, was: "", value: "--import=data:text/javascript,process.exit(9)" },
      ]);
      expect(res.status, res.text).toBe(400);
      expect(res.json.success).toBe(false);
      expect(res.text).not.toMatch(/TypeError|at .*\.ts:\d+/);
      expect(prototypeNames()).toEqual(before);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(({} as Record<string, unknown>).NODE_OPTIONS).toBeUndefined();
      expect(repo.git("rev-parse", "HEAD")).toBe(head);
      expect(repo.git("status", "--porcelain")).toBe("");
    },
  );

  test("a valid key beside a prototype key: the whole save is refused before anything is applied", async () => {
    const { revisions, texts } = await load();
    const head = repo.git("rev-parse", "HEAD");
    const res = await save(editor, revisions, [
      { lang: "nl", key: "hero.badge", was: texts.nl["hero.badge"], value: "Naar heel Europa" },
      { lang: "nl", key: "__proto__.polluted", was: "", value: "yes" },
    ]);
    expect(res.status).toBe(400);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(repo.git("rev-parse", "HEAD")).toBe(head);
  });

  test("after every hostile request, strict schemas still accept a valid body (a no-op save and a real one)", async () => {
    const { revisions, texts } = await load();
    const noop = await save(editor, revisions, [
      { lang: "nl", key: "hero.title", was: texts.nl["hero.title"], value: texts.nl["hero.title"] },
    ]);
    expect(noop.status, noop.text).toBe(200);
    expect(noop.json.commit).toBeNull();
    const real = await save(editor, revisions, [
      { lang: "nl", key: "general.close", was: texts.nl["general.close"], value: "Sluit af" },
    ]);
    expect(real.status, real.text).toBe(200);
  });
});

describe("saves and loads at the same time (issue 29: loads and saves answered 500, JsonSyntaxError: The file is empty)", () => {
  test("2 editors x 6 saves of different Dutch texts while a third loads all the time: no 500, every save kept", async () => {
    const { texts } = await load();
    const keys = { [editor]: "hero.badge", [other]: "hero.contactUs" };
    let saving = true;
    const loads: number[] = [];
    const reader = (async () => {
      while (saving) {
        loads.push((await call(content, "/api/content/texts", { cookie: editor })).status);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const writer = async (cookie: string) => {
      const key = keys[cookie];
      const statuses: (number | string)[] = [];
      let was = texts.nl[key];
      for (let i = 1; i <= 6; i++) {
        const value = `${cookie === editor ? "Naar Europa" : "Neem contact op"} ${i}`;
        const { revisions } = await load(cookie);
        const res = await save(cookie, revisions, [{ lang: "nl", key, was, value }]);
        statuses.push(res.status === 200 ? 200 : `${res.status} ${res.text}`);
        if (res.status === 200) was = value;
      }
      return statuses;
    };
    const results = await Promise.all([writer(editor), writer(other)]);
    saving = false;
    await reader;
    expect(results).toEqual([Array(6).fill(200), Array(6).fill(200)]);
    expect(loads.length).toBeGreaterThan(0);
    expect(loads.filter((s) => s !== 200)).toEqual([]);
    const now = (await load()).texts.nl;
    expect(now["hero.badge"]).toBe("Naar Europa 6");
    expect(now["hero.contactUs"]).toBe("Neem contact op 6");
    // Every save is a commit of its own, in order.
    const subjects = repo.git("log", "-12", "--format=%an %s").split("\n");
    expect(subjects.filter((s) => s.startsWith("marketing Texts: hero.badge"))).toHaveLength(6);
    expect(subjects.filter((s) => s.startsWith("translator Texts: hero.contactUs"))).toHaveLength(6);
    expect(repo.git("status", "--porcelain")).toBe("");
  }, 300_000);
});

describe("one-line fields (issue 29: a testimonial author with line breaks was accepted and reached the commit message)", () => {
  const AUTHOR = "testimonials:sara-rahimi.author";
  test.each([
    ["a testimonial's author", AUTHOR, "Sara Rahimi\nSigned-off-by: Mallory <m@example.com>"],
    ["a team member's role", "team:nasrin-farahani.role", "Founder\r\nCo-authored-by: x <x@example.com>"],
    ["a locale text", "hero.title", "Breng je bedrijf\u2028naar Europa"],
    ["an email's subject", "mail.enquiry.subject", "Ontvangen ({{ref}})\nBcc: all@example.com"],
  ])("refuses a line break in %s, field by field, and commits nothing", async (_what, key, value) => {
    const { revisions, texts } = await load();
    const head = repo.git("rev-parse", "HEAD");
    const res = await save(editor, revisions, [{ lang: "nl", key, was: texts.nl[key], value }]);
    expect(res.status, res.text).toBe(400);
    expect(res.json.errors[`nl:${key}`].join(" ")).toMatch(/one line/);
    expect(repo.git("rev-parse", "HEAD")).toBe(head);
  });

  test("a testimonial's text may hold a paragraph break", async () => {
    const { revisions, texts } = await load();
    const key = "testimonials:sara-rahimi.content";
    const value = `${texts.nl[key]}\n\nWe raden ze iedereen aan.`;
    const res = await save(editor, revisions, [{ lang: "nl", key, was: texts.nl[key], value }]);
    expect(res.status, res.text).toBe(200);
  });

  test("a line break already in a file (committed by hand) never adds a line to a commit message", async () => {
    const file = "src/data/testimonials.json";
    const original = repo.read(file);
    repo.commitAs(
      file,
      original.replace('"en": "Sara Rahimi"', '"en": "Sara Rahimi\\n\\nSigned-off-by: Mallory <m@example.com>"'),
      "developer",
    );
    const { revisions, texts } = await load();
    const key = "testimonials:sara-rahimi.company";
    const res = await save(editor, revisions, [{ lang: "nl", key, was: texts.nl[key], value: "Oprichter, Arvan" }]);
    expect(res.status, res.text).toBe(200);
    const message = repo.git("log", "-1", "--format=%B");
    expect(message).not.toMatch(/^Signed-off-by:/m);
    expect(repo.git("log", "-1", "--format=%(trailers)")).toBe("");
    expect(message.split("\n")[0]).toBe("Texts: Sara Rahimi Signed-off-by: Mallory <m@example.com> → company (Dutch)");
    repo.commitAs(file, original, "developer");
  });
});

// Publishing and undoing run git against a repository; beside the browser tests, in CI's PostgreSQL 15
// pass, two staff undoing at once took 16 s (the publisher's undo test, the same work, met the 30 s default).
describe("history and undo", { timeout: 120_000 }, () => {
  const history = async (cookie = editor) => {
    const res = await call(content, "/api/content/history", { cookie });
    expect(res.status, res.text).toBe(200);
    return res.json.entries as any[];
  };
  const undo = (cookie: string, body: unknown) =>
    call(content, "/api/content/undo", { method: "POST", body, cookie, headers: { origin: ORIGIN } });

  test("a publish is in the history with who, when and what; its undo publishes the old text as a new commit", async () => {
    const { revisions, texts } = await load();
    const was = texts.nl["hero.stats.businesses"];
    const published = await save(editor, revisions, [
      { lang: "nl", key: "hero.stats.businesses", was, value: "Bedrijven gegroeid" },
    ]);
    expect(published.status, published.text).toBe(200);
    const [entry] = await history();
    expect(entry).toMatchObject({
      commit: published.json.commit,
      actor: "marketing",
      kind: "publish",
      count: 1,
      changes: [{ lang: "nl", key: "hero.stats.businesses", was, value: "Bedrijven gegroeid" }],
    });
    expect(Date.parse(entry.at)).not.toBeNaN();

    const res = await undo(other, { commit: published.json.commit });
    expect(res.status, res.text).toBe(200);
    expect(res.json.commit).toBe(repo.git("rev-parse", "HEAD"));
    expect(res.json.saved).toEqual([{ lang: "nl", key: "hero.stats.businesses", value: was }]);
    expect((await load()).texts.nl["hero.stats.businesses"]).toBe(was);
    // A new commit (the publish stays in git's history), by the one who undid it, one line of nl.json.
    expect(repo.git("log", "-2", "--format=%an|%s")).toBe(
      `translator|Undo ${published.json.commit.slice(0, 7)}: hero.stats.businesses (Dutch)\nmarketing|Texts: hero.stats.businesses (Dutch)`,
    );
    expect(numstat(res.json.commit)).toEqual([`1\t1\t${NL}`]);

    const [undoEntry, publishEntry] = await history();
    expect(undoEntry).toMatchObject({ kind: "undo", actor: "translator", undoes: published.json.commit, count: 1 });
    expect(publishEntry.undoneBy).toMatchObject({ commit: res.json.commit, actor: "translator" });
    // Both are in the audit record.
    const actions = await t.db
      .selectFrom("auditLog")
      .select(["action", "detail"])
      .where("action", "in", ["text.publish", "text.undo"])
      .orderBy("id", "desc")
      .limit(2)
      .execute();
    expect(actions.map((a) => a.action)).toEqual(["text.undo", "text.publish"]);
    expect(actions[0].detail).toMatchObject({ commit: res.json.commit, undoes: published.json.commit });
  });

  test("a reply template's change is audited as template.change naming the template's key, its undo too", async () => {
    const { revisions, texts } = await load();
    const subject = texts.fa["mail.replies.firstAnswer.subject"];
    const signOff = texts.nl["mail.replies.signOff"];
    const published = await save(editor, revisions, [
      { lang: "fa", key: "mail.replies.firstAnswer.subject", was: subject, value: `${subject} ` + "ـ پاسخ" },
      { lang: "nl", key: "mail.replies.signOff", was: signOff, value: "Hartelijke groet," },
      { lang: "nl", key: "hero.stats.capital", was: texts.nl["hero.stats.capital"], value: "Opgehaald kapitaal" },
    ]);
    expect(published.status, published.text).toBe(200);
    const templates = async () =>
      t.db
        .selectFrom("auditLog")
        .select(["action", "actor", "target", "detail"])
        .where("action", "=", "template.change")
        .orderBy("id")
        .execute();
    expect(await templates()).toEqual([
      {
        action: "template.change",
        actor: "marketing",
        target: "mail.replies.firstAnswer",
        detail: { commit: published.json.commit, languages: ["fa"], keys: ["mail.replies.firstAnswer.subject"] },
      },
      {
        action: "template.change",
        actor: "marketing",
        target: "mail.replies",
        detail: { commit: published.json.commit, languages: ["nl"], keys: ["mail.replies.signOff"] },
      },
    ]);
    const undone = await undo(other, { commit: published.json.commit });
    expect(undone.status, undone.text).toBe(200);
    const undos = (await templates()).slice(2).sort((a, b) => a.target.localeCompare(b.target));
    expect(undos).toMatchObject([
      { actor: "translator", target: "mail.replies", detail: { undoes: published.json.commit } },
      { actor: "translator", target: "mail.replies.firstAnswer", detail: { undoes: published.json.commit } },
    ]);
  });

  test("an undo of a commit the editor did not make, of an unknown one, or twice: refused in words, never a 5xx", async () => {
    // A developer's commit of a text file: on the branch, but not the editor's.
    repo.commitAs(NL, repo.read(NL).replace(/"close": "Sluit(en)?"/, '"close": "Sluiten!"'), "developer");
    const developers = repo.git("rev-parse", "HEAD");
    const head = developers;
    let res = await undo(editor, { commit: developers });
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ code: "not-editors-commit" });
    expect(res.json.message).toContain("was not published with the content editor");
    res = await undo(editor, { commit: "0".repeat(40) });
    expect(res.status).toBe(404);

    const { revisions, texts } = await load();
    const published = await save(editor, revisions, [
      { lang: "en", key: "hero.badge", was: texts.en["hero.badge"], value: "From Tehran and Amsterdam to Europe" },
    ]);
    expect(published.status, published.text).toBe(200);
    expect((await undo(editor, { commit: published.json.commit })).status).toBe(200);
    const afterUndo = repo.git("rev-parse", "HEAD");
    res = await undo(other, { commit: published.json.commit });
    expect(res.status).toBe(409);
    expect(res.json).toMatchObject({ code: "already-undone" });
    expect(res.json.message).toContain("undone already, by marketing");
    expect(repo.git("rev-parse", "HEAD")).toBe(afterUndo);
    expect(head).not.toBe(afterUndo);
  });

  test("two staff undo the same publish at once: one undo is made, the other is told it is undone already", async () => {
    const { revisions, texts } = await load();
    const published = await save(editor, revisions, [
      { lang: "fa", key: "hero.badge", was: texts.fa["hero.badge"], value: "از تهران و آمستردام به اروپا" },
    ]);
    expect(published.status, published.text).toBe(200);
    const answers = await Promise.all([
      undo(editor, { commit: published.json.commit }),
      undo(other, { commit: published.json.commit }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)!.json.code).toBe("already-undone");
    expect((await load()).texts.fa["hero.badge"]).toBe(texts.fa["hero.badge"]);
    expect(repo.git("log", "-1", "--format=%s")).toMatch(/^Undo /);
    expect(repo.git("log", "-2", "--format=%s").split("\n")[1]).toMatch(/^Texts: /);
  });

  test("a text changed again since the publish: the undo is refused and names it, nothing is committed", async () => {
    let { revisions, texts } = await load();
    const original = texts.nl["hero.stats.countries"];
    const first = await save(editor, revisions, [
      { lang: "nl", key: "hero.stats.countries", was: original, value: "Klanten" },
    ]);
    expect(first.status).toBe(200);
    ({ revisions, texts } = await load());
    expect(
      (
        await save(other, revisions, [
          { lang: "nl", key: "hero.stats.countries", was: "Klanten", value: "Onze klanten" },
        ])
      ).status,
    ).toBe(200);
    const head = repo.git("rev-parse", "HEAD");
    const res = await undo(editor, { commit: first.json.commit });
    expect(res.status).toBe(409);
    expect(res.json.code).toBe("changed-since");
    expect(res.json.conflicts).toEqual([
      {
        lang: "nl",
        key: "hero.stats.countries",
        yours: original,
        theirs: "Onze klanten",
      },
    ]);
    expect(repo.git("rev-parse", "HEAD")).toBe(head);
  });

  test("hostile bodies: not a commit id, extra keys, prototype keys, deep nesting, no session, another site", async () => {
    for (const body of [
      { commit: "HEAD" },
      { commit: "abc" },
      { commit: "--all" },
      { commit: "0".repeat(40), extra: 1 },
      JSON.parse(`{"__proto__":{"commit":"${"0".repeat(40)}"}}`),
      JSON.parse('{"commit":"' + "a".repeat(40) + '","constructor":{"prototype":{}}}'),
      { commit: ["0".repeat(40)] },
      { commit: "ABCDEF0123".repeat(4) },
    ]) {
      const res = await undo(editor, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    let deep: unknown = "x";
    for (let i = 0; i < 100; i++) deep = { commit: deep };
    expect((await undo(editor, deep)).status).toBe(400);
    expect(
      (await call(content, "/api/content/undo", { method: "POST", body: { commit: "0".repeat(40) } })).status,
    ).toBe(401);
    expect(
      (
        await call(content, "/api/content/undo", {
          method: "POST",
          body: { commit: "0".repeat(40) },
          cookie: editor,
          headers: { origin: "https://evil.example" },
        })
      ).status,
    ).toBe(403);
    expect((await call(content, "/api/content/history")).status).toBe(401);
  });
});
