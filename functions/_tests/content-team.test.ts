/**
 * POST /api/content/team against a real git working copy: a new team member appended to team.json
 * as prettier writes it, one commit by the editor; every refusal a 4xx that commits nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { format } from "prettier";
import { createUser } from "#db/users.repository.ts";
import { teamFile } from "#src/data/content-schema.ts";
import { site } from "#config/site.ts";
import { call, ORIGIN, setupApiDatabase } from "./harness.ts";
import { textRepo, type TextRepo } from "./git-fixture.ts";
import { PROTOTYPE_KEYS } from "./hostile.ts";
import login from "../login.ts";
import content from "../content.ts";
import consultants from "../admin-consultants.ts";
import { fixtureAdmin, fixtureHash } from "./fixture-users.ts";

const PASSWORD = "correct horse battery staple";
const TEAM = "src/data/team.json";
const REVIEWED = "src/i18n/reviewed.json";

let t: Awaited<ReturnType<typeof setupApiDatabase>>;
let repo: TextRepo;
let editor: string;
let admin: string;

async function signIn(username: string) {
  const res = await call(login, "/api/login", { body: { username, password: PASSWORD } });
  expect(res.status).toBe(200);
  return res.headers.get("set-cookie")!.split(";")[0];
}

const member = (over: Record<string, unknown> = {}) => ({
  name: { en: "Lotte de Vries", nl: "Lotte de Vries", fa: "لوته د فریس" },
  role: { en: "Immigration consultant", nl: "Immigratieadviseur", fa: "مشاور مهاجرت" },
  bio: {
    en: "Guides founders through the startup visa, from the first plan to the permit.",
    nl: "Begeleidt oprichters bij het startupvisum, van het eerste plan tot de vergunning.",
    fa: "بنیان‌گذاران را در مسیر ویزای استارتاپ، از نخستین طرح تا مجوز، همراهی می‌کند.",
  },
  languages: ["nl", "en"],
  services: ["startup-visa", "business-launchpad"],
  ...over,
});

const revisionsNow = async (cookie = editor) =>
  (await call(content, "/api/content/texts", { cookie })).json.revisions as Record<string, string>;

const add = async (body: unknown, cookie = editor, headers: Record<string, string> = { origin: ORIGIN }) =>
  call(content, "/api/content/team", {
    method: "POST",
    ...(typeof body === "string"
      ? { raw: body, headers: { ...headers, "content-type": "application/json" } }
      : { body, headers }),
    cookie,
  });

const head = () => repo.git("rev-parse", "HEAD");

beforeAll(async () => {
  t = await setupApiDatabase();
  repo = textRepo();
  process.env.CONTENT_PROVIDER = "git";
  process.env.CONTENT_GIT_DIR = repo.dir;
  await fixtureAdmin(t.db, "admin", PASSWORD);
  await createUser(t.db, "marketing", await fixtureHash(PASSWORD), "editor");
  editor = await signIn("marketing");
  admin = await signIn("admin");
}, 60_000);
afterAll(async () => {
  delete process.env.CONTENT_PROVIDER;
  delete process.env.CONTENT_GIT_DIR;
  repo?.remove();
  await t?.destroy();
});

describe("POST /api/content/team", () => {
  test("appends the member to team.json as prettier writes it, in one commit by the editor", async () => {
    const before = repo.read(TEAM);
    const res = await add({ revisions: await revisionsNow(), member: member() });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({ success: true, id: "lotte-de-vries", commit: head() });
    const after = repo.read(TEAM);
    // Only lines added: the members before stay byte for byte, and prettier would change nothing.
    expect(after.startsWith(before.slice(0, before.lastIndexOf("}") + 1))).toBe(true);
    expect(await format(after, { parser: "json", printWidth: 120 })).toBe(after);
    expect(after).toContain(
      '    "languages": ["nl", "en"],\n    "services": ["startup-visa", "business-launchpad"]\n  }\n]\n',
    );
    const team = teamFile.parse(JSON.parse(after));
    expect(team.at(-1)).toEqual({ id: "lotte-de-vries", ...member() });
    expect(repo.git("log", "-1", "--format=%an <%ae>|%s")).toBe(
      `marketing <marketing@editors.${new URL(site.url).hostname}>|Team: add Lotte de Vries (lotte-de-vries)`,
    );
    expect(repo.git("show", "--name-only", "--format=", "HEAD").split("\n").sort()).toEqual([TEAM, REVIEWED].sort());
    expect(repo.git("status", "--porcelain")).toBe("");
    // The editor lists the member's texts at once, and its translations wait for no review.
    const texts = (await call(content, "/api/content/texts", { cookie: editor })).json;
    expect(texts.collections.team.at(-1).id).toBe("lotte-de-vries");
    expect(texts.texts.fa["team:lotte-de-vries.role"]).toBe("مشاور مهاجرت");
    expect(texts.reviews.filter((r: { key: string }) => r.key.startsWith("team:lotte-de-vries"))).toEqual([]);
    const [entry] = await t.db
      .selectFrom("auditLog")
      .select(["action", "target", "actor"])
      .where("action", "=", "team.add")
      .execute();
    expect(entry).toEqual({ action: "team.add", target: "lotte-de-vries", actor: "marketing" });
  });

  test("the new member can be linked as a consultant at once, without restarting the server", async () => {
    const account = await createUser(t.db, "lotte", await fixtureHash(PASSWORD), "editor");
    const linked = await call(consultants, "/api/admin/consultants", {
      body: { consultant: "lotte-de-vries", userId: account.id },
      cookie: admin,
      headers: { origin: ORIGIN },
    });
    expect(linked.status, linked.text).toBe(201);
    const list = await call(consultants, "/api/admin/consultants", { cookie: admin });
    expect(list.json.find((c: { id: string }) => c.id === "lotte-de-vries")).toMatchObject({
      name: { en: "Lotte de Vries", fa: "لوته د فریس" },
      languages: ["nl", "en"],
    });
  });

  test("an admin may add one too; Persian is written with Persian letters", async () => {
    const res = await add(
      {
        revisions: {},
        member: member({
          name: { en: "Kian Ahmadi", nl: "Kian Ahmadi", fa: "كيان احمدي" },
          languages: ["fa"],
          services: ["startup-studio"],
        }),
      },
      admin,
    );
    expect(res.status, res.text).toBe(201);
    expect(res.json.id).toBe("kian-ahmadi");
    expect(repo.read(TEAM)).toContain('"fa": "کیان احمدی"');
  });

  test("answers 409 for an id taken, and names the English name as the field to change", async () => {
    const start = head();
    const res = await add({ revisions: {}, member: member({ name: { en: "LOTTE  de vries!", nl: "L", fa: "ل" } }) });
    expect(res.status).toBe(409);
    expect(res.json.errors["name.en"][0]).toContain("lotte-de-vries");
    const existing = await add({
      revisions: {},
      member: member({ name: { en: "Nasrin Farahani", nl: "Nasrin", fa: "نسرین" } }),
    });
    expect(existing.status).toBe(409);
    expect(head()).toBe(start);
  });

  test("says so when another editor added the same name since the form was loaded", async () => {
    const revisions = await revisionsNow();
    const name = { en: "Sam Bakker", nl: "Sam Bakker", fa: "سم باکر" };
    expect((await add({ revisions, member: member({ name }) }, admin)).status).toBe(201);
    const res = await add({ revisions, member: member({ name }) });
    expect(res.status).toBe(409);
    expect(res.json.message).toContain("since you opened the page");
  });

  test("merges a member added while another commit changed team.json", async () => {
    const revisions = await revisionsNow();
    const text = repo.read(TEAM).replace('"en": "Founder and Managing Partner"', '"en": "Founder and Partner"');
    repo.commitAs(TEAM, text, "developer");
    const res = await add({ revisions, member: member({ name: { en: "Eva Smit", nl: "Eva Smit", fa: "اوا اسمیت" } }) });
    expect(res.status, res.text).toBe(201);
    expect(repo.read(TEAM)).toContain('"en": "Founder and Partner"');
    expect(repo.read(TEAM)).toContain('"id": "eva-smit"');
  });

  describe("refusals: 4xx, nothing committed", () => {
    const refused = async (body: unknown, status: number, cookie = editor, headers?: Record<string, string>) => {
      const start = head();
      const res = await add(body, cookie, headers);
      expect(res.status, res.text).toBe(status);
      expect(head()).toBe(start);
      return res;
    };

    test("401 without a session, 403 from another origin", async () => {
      await refused({ revisions: {}, member: member() }, 401, "");
      await refused({ revisions: {}, member: member() }, 403, editor, { origin: "https://evil.example" });
    });

    test("400 for missing languages, unknown services and languages, a service twice", async () => {
      const none = await refused({ revisions: {}, member: member({ languages: [] }) }, 400);
      expect(none.json.errors.languages[0]).toContain("needs at least one");
      const unknown = await refused({ revisions: {}, member: member({ services: ["tax-advice"] }) }, 400);
      expect(Object.keys(unknown.json.errors)).toEqual(["services.0"]);
      await refused({ revisions: {}, member: member({ languages: ["de"] }) }, 400);
      await refused({ revisions: {}, member: member({ services: ["other"] }) }, 400);
      await refused({ revisions: {}, member: member({ services: ["startup-visa", "startup-visa"] }) }, 400);
    });

    test("400 for empty, oversize and non-latin English names, and texts the copy rules refuse", async () => {
      // A name not taken: the id is checked before the texts.
      const noor = (over: Record<string, unknown>) =>
        member({ name: { en: "Noor Jansen", nl: "Noor Jansen", fa: "نور یانسن" }, ...over });
      const empty = await refused(
        { revisions: {}, member: noor({ role: { en: "Consultant", nl: " ", fa: "مشاور" } }) },
        400,
      );
      expect(empty.json.errors["role.nl"][0]).toContain("is empty");
      await refused({ revisions: {}, member: noor({ bio: { en: "x".repeat(1001), nl: "x", fa: "x" } }) }, 400);
      await refused({ revisions: {}, member: member({ name: { en: "x".repeat(81), nl: "x", fa: "x" } }) }, 400);
      const persianOnly = await refused(
        { revisions: {}, member: member({ name: { en: "نام", nl: "Naam", fa: "نام" } }) },
        400,
      );
      expect(persianOnly.json.errors["name.en"]).toBeDefined();
      await refused({ revisions: {}, member: member({ name: { en: "Jan {{brand}}", nl: "Jan", fa: "یان" } }) }, 400);
    });

    test("400 for prototype keys, unknown fields, a missing language and wrong types", async () => {
      for (const key of PROTOTYPE_KEYS) {
        await refused(`{"revisions":{},"member":${JSON.stringify(member())},"${key}":{"admin":true}}`, 400);
        const text = JSON.stringify(member()).replace('"name":{', `"name":{"${key}":"x",`);
        await refused(`{"revisions":{},"member":${text}}`, 400);
      }
      await refused({ revisions: {}, member: { ...member(), id: "chosen-id" } }, 400);
      await refused({ revisions: {}, member: member({ name: { en: "Jo", nl: "Jo" } }) }, 400);
      await refused({ revisions: {}, member: member({ languages: "nl" }) }, 400);
      await refused({ revisions: {}, member: member({ languages: Array(50).fill("nl") }) }, 400);
      await refused({ revisions: { [TEAM]: "not a revision" }, member: member() }, 400);
      await refused({ member: member() }, 400);
      await refused("[]", 400);
      await refused("not json", 400);
    });
  });
});
