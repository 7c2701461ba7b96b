/**
 * `npm run test:changed`'s selection (scripts/test/changed.mjs): in a throwaway git repository shaped
 * like the project (a function, its form guard, the API harness, islands, browser specs), each kind of
 * change selects the tests that reach it and nothing else; then the same on this tree for the form
 * guard, the example docs/architecture.md gives.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { changedFiles, selectTests } from "./changed.mjs";

type Selection = { vitest: string[]; e2e: string[] };
const select = (root: string, changed: string[]) => selectTests(root, changed) as Promise<Selection>;

const FILES: Record<string, string> = {
  "package.json": JSON.stringify({ type: "module", imports: { "#shared/*": "./src/shared/*", "#db/*": "./db/*" } }),
  "src/shared/routes.ts": `export const ROUTES = { contact: "/api/contact", newsletter: "/api/newsletter", admin: { users: "/api/admin/users/:id" } };\n`,
  "src/shared/form-guard.ts": `export const HONEYPOT_FIELD = "website";\n`,
  "src/shared/api/contact.ts": `export type ContactAnswer = { ok: true };\n`,
  "db/testing.ts": `export const useTestDatabase = () => ({});\n`,
  "db/users.ts": `export const users = [];\n`,
  "functions/_lib/forms/form-guard.ts": `import { HONEYPOT_FIELD } from "#shared/form-guard.ts";\nexport const guard = () => HONEYPOT_FIELD;\n`,
  "functions/_lib/forms/form-guard.test.ts": `import { guard } from "./form-guard.ts";\n`,
  "functions/contact.ts": `import { ROUTES } from "#shared/routes.ts";\nimport { guard } from "./_lib/forms/form-guard.ts";\nexport default guard;\nexport const config = { path: ROUTES.contact };\n`,
  "functions/admin-users.ts": `import { ROUTES } from "#shared/routes.ts";\nimport { users } from "#db/users.ts";\nexport default users;\nexport const config = { path: ROUTES.admin.users };\n`,
  "functions/_tests/harness.ts": `import { useTestDatabase } from "#db/testing.ts";\nimport { guard } from "../_lib/forms/form-guard.ts";\nexport { useTestDatabase, guard };\n`,
  "functions/_tests/contact.test.ts": `import { call } from "./harness.ts";\nimport contact from "../contact.ts";\n`,
  "functions/_tests/admin.test.ts": `import { call } from "./harness.ts";\nimport users from "../admin-users.ts";\nimport type { ContactAnswer } from "#shared/api/contact.ts";\n`,
  "src/components/islands/ContactForm.tsx": `import { ROUTES } from "../../shared/routes";\nimport { HONEYPOT_FIELD } from "../../shared/form-guard";\nexport const post = () => fetch(ROUTES.contact);\n`,
  "src/components/islands/Carousel.tsx": `export const Carousel = () => null;\n`,
  "src/shared/dates.test.ts": `export {};\n`,
  "e2e/helpers.ts": `export async function openContactForm(page) {\n  await hydrated(page, "ContactForm");\n}\nexport async function adminUser(request) {\n  return request.get("/api/admin/users/1");\n}\n`,
  "e2e/test.ts": `export const test = {};\n`,
  "e2e/enquiry.spec.ts": `import { test } from "./test";\nimport { openContactForm } from "./helpers";\ntest("sends", () => openContactForm(page));\n`,
  "e2e/admin.spec.ts": `import { test } from "./test";\nimport { adminUser } from "./helpers";\ntest("lists", () => adminUser(request));\n`,
  "e2e/carousel.spec.ts": `import { test } from "./test";\ntest("slides", () => hydrated(page, "Carousel"));\n`,
  "docs/architecture.md": "# Architecture\n",
};

let repo = "";
const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, encoding: "utf8" });
const write = (file: string, text: string) => {
  mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
  writeFileSync(path.join(repo, file), text);
};

beforeAll(() => {
  repo = mkdtempSync(path.join(tmpdir(), "test-changed-"));
  for (const [file, text] of Object.entries(FILES)) write(file, text);
  git("init", "-q", "-b", "main");
  git("-c", "user.name=t", "-c", "user.email=t@example.org", "add", ".");
  git("-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q", "-m", "Start");
  git("checkout", "-q", "-b", "work");
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

/** Makes `edits` on a fresh copy of main's tree, returns what changed and the selection. */
async function afterEditing(edits: Record<string, string>, { commit = false } = {}) {
  git("checkout", "-q", "-f", "main");
  git("clean", "-fdq");
  git("branch", "-q", "-f", "work", "main");
  git("checkout", "-q", "work");
  for (const [file, text] of Object.entries(edits)) write(file, text);
  if (commit) {
    git("add", ".");
    git("-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q", "-m", "Edit");
  }
  const changed = changedFiles(repo, "main");
  return { changed, ...(await select(repo, changed)) };
}

describe("test:changed in a throwaway repository", () => {
  test("a changed form guard: its unit test, the API test of the form that uses it, the spec sending that form", async () => {
    const edit = `${FILES["functions/_lib/forms/form-guard.ts"]}// tightened\n`;
    const result = await afterEditing({ "functions/_lib/forms/form-guard.ts": edit });
    expect(result.changed).toEqual(["functions/_lib/forms/form-guard.ts"]);
    // The harness imports the guard too, but only to post forms: admin.test.ts is not a test of it.
    expect(result.vitest).toEqual(["functions/_lib/forms/form-guard.test.ts", "functions/_tests/contact.test.ts"]);
    // enquiry.spec names no address: its helper opens the ContactForm island, which posts to ROUTES.contact.
    expect(result.e2e).toEqual(["e2e/enquiry.spec.ts"]);
  });

  test("committed changes count as well as edits in the work tree", async () => {
    const result = await afterEditing({ "db/users.ts": "export const users = [1];\n" }, { commit: true });
    expect(result.changed).toEqual(["db/users.ts"]);
    expect(result.vitest).toEqual(["functions/_tests/admin.test.ts"]);
    // admin.spec calls /api/admin/users/1 through its helper; the function answers on /api/admin/users/:id.
    expect(result.e2e).toEqual(["e2e/admin.spec.ts"]);
  });

  test("only docs changed: nothing runs", async () => {
    const result = await afterEditing({ "docs/architecture.md": "# Architecture\n\nMore.\n", "docs/new.md": "new\n" });
    expect(result.changed).toEqual(["docs/architecture.md", "docs/new.md"]);
    expect(result).toMatchObject({ vitest: [], e2e: [] });
  });

  test("a changed test helper runs every test that imports it; a changed island the specs naming it", async () => {
    const harness = await afterEditing({
      "functions/_tests/harness.ts": `${FILES["functions/_tests/harness.ts"]}//\n`,
    });
    expect(harness.vitest).toEqual(["functions/_tests/admin.test.ts", "functions/_tests/contact.test.ts"]);
    expect(harness.e2e).toEqual([]);
    const island = await afterEditing({ "src/components/islands/Carousel.tsx": "export const Carousel = () => 1;\n" });
    expect(island).toMatchObject({ vitest: [], e2e: ["e2e/carousel.spec.ts"] });
    const helper = await afterEditing({ "e2e/test.ts": "export const test = { strict: true };\n" });
    expect(helper).toMatchObject({
      vitest: [],
      e2e: ["e2e/admin.spec.ts", "e2e/carousel.spec.ts", "e2e/enquiry.spec.ts"],
    });
  });

  test("a type-only import runs nothing; a new, untracked test file runs itself", async () => {
    const types = await afterEditing({ "src/shared/api/contact.ts": "export type ContactAnswer = { ok: false };\n" });
    expect(types).toMatchObject({ vitest: [], e2e: [] });
    const added = await afterEditing({ "src/shared/new.test.ts": "export {};\n" });
    expect(added.changed).toEqual(["src/shared/new.test.ts"]);
    expect(added).toMatchObject({ vitest: ["src/shared/new.test.ts"], e2e: [] });
  });

  test("what every test or page shares runs every test it can affect", async () => {
    const config = await afterEditing({ "package.json": FILES["package.json"].replace("}}", '}, "x": 1}') });
    expect(config.vitest).toHaveLength(4);
    expect(config.e2e).toHaveLength(3);
    const layout = await afterEditing({ "src/layouts/Base.astro": "<html></html>\n" });
    expect(layout).toMatchObject({
      vitest: [],
      e2e: ["e2e/admin.spec.ts", "e2e/carousel.spec.ts", "e2e/enquiry.spec.ts"],
    });
  });
});

describe("test:changed on this tree", () => {
  const root = path.resolve(import.meta.dirname, "../..");

  test("the form guard: its unit tests, the API tests of the contact, meeting and newsletter forms, the forms' specs", async () => {
    const { vitest, e2e } = await select(root, ["functions/_lib/forms/form-guard.ts"]);
    expect(vitest).toContain("functions/_lib/forms/form-guard.test.ts");
    for (const api of ["public", "newsletter", "meetings", "abuse"])
      expect(vitest).toContain(`functions/_tests/${api}.test.ts`);
    for (const spec of ["enquiry", "form-guard", "booking", "toasts-newsletter"])
      expect(e2e).toContain(`e2e/${spec}.spec.ts`);
    // Nothing that neither posts a form nor imports the guard.
    for (const unrelated of [
      "functions/_tests/factors.test.ts",
      "functions/_tests/sessions.test.ts",
      "src/shared/dates.test.ts",
    ])
      expect(vitest).not.toContain(unrelated);
    for (const unrelated of ["admin-factors", "carousel", "navbar", "fonts", "seo"])
      expect(e2e).not.toContain(`e2e/${unrelated}.spec.ts`);
  });

  test("only docs: nothing", async () => {
    expect(await select(root, ["docs/architecture.md", "docs/benchmarks.md"])).toEqual({ vitest: [], e2e: [] });
  });
});
