/**
 * `npm run test:changed`'s selection (scripts/test/changed.mjs): in a throwaway git repository shaped
 * like the project (a function, its form guard, the API harness, islands, browser specs), each kind of
 * change selects the tests that reach it and nothing else; then on this tree: the form guard (the
 * example issue 40 and docs/architecture.md give), docs/ alone, a shared schema, and the table of the
 * tests written for each function (scripts/test/function-tests.mjs) held to the tree.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { changedFiles, importGraph, selectTests } from "./changed.mjs";
import { FUNCTION_TESTS } from "./function-tests.mjs";

type Selection = { vitest: string[]; e2e: string[]; why: Map<string, string> };
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
  // Posts an enquiry only to count where it came from: a test of views, not of the contact form.
  "functions/_tests/views.test.ts": `import { call } from "./harness.ts";\nimport contact from "../contact.ts";\n`,
  // contact.ts has its tests listed; admin-users.ts has no line yet.
  "scripts/test/function-tests.mjs": `export const FUNCTION_TESTS = { contact: { api: ["contact"], browser: ["enquiry"] } };\n`,
  "src/components/islands/ContactForm.tsx": `import { ROUTES } from "../../shared/routes";\nimport { HONEYPOT_FIELD } from "../../shared/form-guard";\nexport const post = () => fetch(ROUTES.contact);\n`,
  "src/components/islands/Carousel.tsx": `export const Carousel = () => null;\n`,
  "src/shared/dates.test.ts": `export {};\n`,
  "e2e/helpers.ts": `export async function openContactForm(page) {\n  await hydrated(page, "ContactForm");\n}\nexport async function adminUser(request) {\n  return request.get("/api/admin/users/1");\n}\n`,
  "e2e/test.ts": `export const test = {};\n`,
  "e2e/enquiry.spec.ts": `import { test } from "./test";\nimport { openContactForm } from "./helpers";\ntest("sends", () => openContactForm(page));\n`,
  "e2e/admin.spec.ts": `import { test } from "./test";\nimport { adminUser } from "./helpers";\ntest("lists", () => adminUser(request));\n`,
  "e2e/carousel.spec.ts": `import { test } from "./test";\ntest("slides", () => hydrated(page, "Carousel"));\n`,
  // Sends an enquiry through the API to have a lead on its board.
  "e2e/desk.spec.ts": `import { test } from "./test";\ntest("moves", () => request.post("/api/contact", { data }));\n`,
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
  test("a changed form guard: its unit test, the API test and the spec written for the form that uses it", async () => {
    const edit = `${FILES["functions/_lib/forms/form-guard.ts"]}// tightened\n`;
    const result = await afterEditing({ "functions/_lib/forms/form-guard.ts": edit });
    expect(result.changed).toEqual(["functions/_lib/forms/form-guard.ts"]);
    // The harness imports the guard too, but only to post forms: admin.test.ts is not a test of it.
    // views.test.ts calls contact.ts to make a lead: the walk stops at the function, whose table
    // line names contact.test.ts; desk.spec posts an enquiry for its board and is not listed either.
    expect(result.vitest).toEqual(["functions/_lib/forms/form-guard.test.ts", "functions/_tests/contact.test.ts"]);
    expect(result.e2e).toEqual(["e2e/enquiry.spec.ts"]);
    expect(Object.fromEntries(result.why)).toEqual({
      "functions/_lib/forms/form-guard.test.ts": "imports what changed",
      "functions/_tests/contact.test.ts": "a test of functions/contact.ts",
      "e2e/enquiry.spec.ts": "a test of functions/contact.ts",
    });
  });

  test("a changed function runs every vitest file that imports it, and the specs written for it", async () => {
    const edit = `${FILES["functions/contact.ts"]}// answers differently\n`;
    const result = await afterEditing({ "functions/contact.ts": edit });
    expect(result.vitest).toEqual(["functions/_tests/contact.test.ts", "functions/_tests/views.test.ts"]);
    expect(result.e2e).toEqual(["e2e/enquiry.spec.ts"]);
  });

  test("an island changed: the specs that name it, whatever the table says", async () => {
    const edit = `${FILES["src/components/islands/ContactForm.tsx"]}// relabelled\n`;
    const result = await afterEditing({ "src/components/islands/ContactForm.tsx": edit });
    expect(result).toMatchObject({ vitest: [], e2e: ["e2e/enquiry.spec.ts"] });
  });

  test("committed changes count as well as edits in the work tree", async () => {
    const result = await afterEditing({ "db/users.ts": "export const users = [1];\n" }, { commit: true });
    expect(result.changed).toEqual(["db/users.ts"]);
    // admin-users.ts has no line in the table: what imports it runs, and the specs naming its addresses
    // (admin.spec calls /api/admin/users/1 through its helper; the function answers on /api/admin/users/:id).
    expect(result.vitest).toEqual(["functions/_tests/admin.test.ts"]);
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
    expect(harness.vitest).toEqual([
      "functions/_tests/admin.test.ts",
      "functions/_tests/contact.test.ts",
      "functions/_tests/views.test.ts",
    ]);
    expect(harness.e2e).toEqual([]);
    const island = await afterEditing({ "src/components/islands/Carousel.tsx": "export const Carousel = () => 1;\n" });
    expect(island).toMatchObject({ vitest: [], e2e: ["e2e/carousel.spec.ts"] });
    const helper = await afterEditing({ "e2e/test.ts": "export const test = { strict: true };\n" });
    expect(helper).toMatchObject({
      vitest: [],
      e2e: ["e2e/admin.spec.ts", "e2e/carousel.spec.ts", "e2e/desk.spec.ts", "e2e/enquiry.spec.ts"],
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
    expect(config.vitest).toHaveLength(5);
    expect(config.e2e).toHaveLength(4);
    const layout = await afterEditing({ "src/layouts/Base.astro": "<html></html>\n" });
    expect(layout).toMatchObject({
      vitest: [],
      e2e: ["e2e/admin.spec.ts", "e2e/carousel.spec.ts", "e2e/desk.spec.ts", "e2e/enquiry.spec.ts"],
    });
  });
});

describe("test:changed on this tree", () => {
  const root = path.resolve(import.meta.dirname, "../..");

  test("the form guard: its unit tests, the API tests of the three public forms, the forms' specs, nothing else", async () => {
    const { vitest, e2e } = await select(root, ["functions/_lib/forms/form-guard.ts"]);
    expect(vitest).toEqual(
      [
        "functions/_lib/forms/form-guard.test.ts",
        // They import the guard themselves: its bot traps and the newsletter's limits.
        "functions/_tests/abuse.test.ts",
        "functions/_tests/newsletter-limits.test.ts",
        // Written for contact.ts, meetings.ts, newsletter.ts and form-token.ts, which import it.
        "functions/_tests/control-characters.test.ts",
        "functions/_tests/meetings.test.ts",
        "functions/_tests/newsletter.test.ts",
        "functions/_tests/public.test.ts",
        "functions/_tests/round-trips.test.ts",
      ].sort(),
    );
    expect(e2e).toEqual([
      // The booking form's own: choosing a consultant and a place is part of what it sends.
      "e2e/booking-consultant.spec.ts",
      "e2e/booking.spec.ts",
      "e2e/enquiry.spec.ts",
      "e2e/first-paint.spec.ts",
      "e2e/form-guard.spec.ts",
      "e2e/toasts-newsletter.spec.ts",
    ]);
  });

  test("only docs: nothing", async () => {
    expect(await select(root, ["docs/architecture.md", "docs/benchmarks.md"])).toMatchObject({ vitest: [], e2e: [] });
  });

  test("a shared schema: the tests of every function and island that use it, and its unit tests", async () => {
    // The newsletter's payload schema: read by newsletter.ts (its API tests) and by the
    // NewsletterForm island (every spec that names it, the CSP and privacy specs too).
    const { vitest, e2e } = await select(root, ["src/shared/schemas/newsletter.ts"]);
    expect(vitest).toEqual([
      "functions/_tests/abuse.test.ts",
      "functions/_tests/control-characters.test.ts",
      "functions/_tests/newsletter-limits.test.ts",
      "functions/_tests/newsletter.test.ts",
      "functions/_tests/public.test.ts",
      "functions/_tests/round-trips.test.ts",
      "src/shared/fourth-language.test.ts",
    ]);
    expect(e2e).toEqual([
      "e2e/csp.spec.ts",
      "e2e/first-paint.spec.ts",
      "e2e/privacy.spec.ts",
      "e2e/toasts-newsletter.spec.ts",
    ]);
  });
});

describe("the tests written for each function (scripts/test/function-tests.mjs)", () => {
  const root = path.resolve(import.meta.dirname, "../..");
  const functions = readdirSync(path.join(root, "functions"))
    .filter((f) => f.endsWith(".ts"))
    .map((f) => f.slice(0, -3))
    .sort();

  test("every function has a line, and every line is a function", () => {
    expect(Object.keys(FUNCTION_TESTS).sort()).toEqual(functions);
  });

  test("every API test named exists and imports its function; every spec named exists", () => {
    const graph = importGraph(root);
    const wrong: string[] = [];
    for (const [name, { api, browser }] of Object.entries(FUNCTION_TESTS)) {
      for (const test of api) {
        const file = `functions/_tests/${test}.test.ts`;
        if (!graph.get(file)?.has(`functions/${name}.ts`)) wrong.push(`${name}: ${file} does not import it`);
      }
      for (const spec of browser)
        if (!existsSync(path.join(root, `e2e/${spec}.spec.ts`))) wrong.push(`${name}: e2e/${spec}.spec.ts`);
    }
    expect(wrong).toEqual([]);
  });
});
