/**
 * The layer boundaries eslint.config.js holds: each zone rejects the imports it forbids and accepts
 * the ones it allows, checked by linting a line of code as if it sat in that folder.
 */
import { ESLint } from "eslint";
import { describe, expect, test } from "vitest";
import { repoRoot } from "./copy-check/testing.ts";

const eslint = new ESLint({ cwd: repoRoot });

async function restricted(filePath: string, line: string): Promise<boolean> {
  const [result] = await eslint.lintText(`${line}\nexport { x };\n`, { filePath: `${repoRoot}/${filePath}` });
  return result.messages.some((m) => m.ruleId === "no-restricted-imports");
}

describe("src/shared imports no Node module, UI framework, database or function code", () => {
  test.each([
    'import { readFileSync as x } from "node:fs";',
    'import x from "path";',
    'import { useState as x } from "react";',
    'import { createRoot as x } from "react-dom/client";',
    'import { getImage as x } from "astro:assets";',
    'import { db as x } from "#db/client.ts";',
    'import { db as x } from "../../db/client.ts";',
    'import { json as x } from "#functions/_lib/http/http.ts";',
    'import { json as x } from "../../functions/_lib/http.ts";',
    'import { serverEnv as x } from "#server/config.ts";',
  ])("rejects %s", async (line) => {
    expect(await restricted("src/shared/example.ts", line)).toBe(true);
  });

  test("accepts zod and its own modules", async () => {
    expect(await restricted("src/shared/example.ts", 'import * as x from "zod/mini";')).toBe(false);
    expect(await restricted("src/shared/example.ts", 'import { LANGUAGES as x } from "./languages.ts";')).toBe(false);
  });
});

describe("islands and components import no server configuration", () => {
  test.each([
    ["src/components/islands/Example.tsx", 'import { serverEnv as x } from "#server/config.ts";'],
    ["src/components/islands/Example.tsx", 'import { serverEnv as x } from "../../../server/config.ts";'],
    ["src/lib/example.ts", 'import { mailConfig as x } from "#server/config.ts";'],
  ])("%s rejects %s", async (file, line) => {
    expect(await restricted(file, line)).toBe(true);
  });

  test("they may import the public site facts and src/shared", async () => {
    expect(await restricted("src/components/islands/Example.tsx", 'import { site as x } from "#config/site.ts";')).toBe(
      false,
    );
    expect(
      await restricted(
        "src/components/islands/Example.tsx",
        'import { type Meeting as x } from "#shared/api/meetings.ts";',
      ),
    ).toBe(false);
  });
});

describe("db/ imports nothing from functions/", () => {
  test.each([
    'import { json as x } from "#functions/_lib/http/http.ts";',
    'import { json as x } from "../functions/_lib/http/http.ts";',
  ])("rejects %s", async (line) => {
    expect(await restricted("db/example.ts", line)).toBe(true);
  });

  test("accepts src/shared and the server configuration", async () => {
    expect(await restricted("db/example.ts", 'import { serverEnv as x } from "#server/config.ts";')).toBe(false);
    expect(await restricted("db/example.ts", 'import { LANGUAGES as x } from "#shared/languages.ts";')).toBe(false);
  });
});

/** Every top-level folder's zone, with one import it must refuse and one it must accept. */
describe.each([
  ["src/shared/example.ts", 'import { site as x } from "#config/site.ts";', 'import { x } from "./languages.ts";'],
  [
    "src/shared/example.ts",
    'import { plainT as x } from "../i18n/plain.ts";',
    'import { x } from "./api/meetings.ts";',
  ],
  ["src/shared/example.ts", 'import { x } from "../components/ui/Button.astro";', 'import * as x from "zod/mini";'],
  [
    "src/config/example.ts",
    'import { x } from "../components/islands/ContactForm.tsx";',
    'import { x } from "#shared/languages.ts";',
  ],
  ["src/i18n/example.ts", 'import { db as x } from "#db/client.ts";', 'import { x } from "../shared/format.ts";'],
  [
    "src/components/islands/Example.tsx",
    'import { db as x } from "#db/client.ts";',
    'import { x } from "#shared/booking.ts";',
  ],
  [
    "src/components/islands/Example.tsx",
    'import { json as x } from "#functions/_lib/http/http.ts";',
    'import { x } from "../../lib/boot.ts";',
  ],
  ["src/lib/example.ts", 'import { x } from "#scripts/runtime/server.mjs";', 'import { x } from "#config/site.ts";'],
  ["src/pages/example.ts", 'import { x } from "#tools/editor/groups.ts";', 'import { x } from "../i18n/plain.ts";'],
  ["server/example.ts", 'import { db as x } from "#db/client.ts";', 'import { site as x } from "#config/site.ts";'],
  ["server/example.ts", 'import { plainT as x } from "#src/i18n/plain.ts";', 'import { x } from "#shared/office.ts";'],
  ["server/example.ts", 'import { x } from "#src/lib/boot.ts";', 'import { x } from "#shared/dates.ts";'],
  ["db/example.ts", 'import { site as x } from "#config/site.ts";', 'import { LIMITS as x } from "#shared/limits.ts";'],
  [
    "db/example.ts",
    'import { x } from "../scripts/runtime/embedded-db.mjs";',
    'import { serverEnv as x } from "#server/config.ts";',
  ],
  ["db/example.ts", 'import { plainT as x } from "#src/i18n/plain.ts";', 'import { x } from "#shared/office.ts";'],
  ["db/example.ts", 'import { x } from "#tools/editor/texts.ts";', 'import { x } from "./client.ts";'],
  ["functions/example.ts", 'import { x } from "#tools/editor/texts.ts";', 'import { db as x } from "#db/client.ts";'],
  [
    "functions/_lib/example.ts",
    'import { x } from "../../tools/copy-check/text-checks.ts";',
    'import { plainT as x } from "#src/i18n/plain.ts";',
  ],
  [
    "functions/example.ts",
    'import { x } from "#scripts/runtime/server.mjs";',
    'import { site as x } from "#config/site.ts";',
  ],
  ["functions/example.ts", 'import { x } from "#src/lib/boot.ts";', 'import { x } from "#server/config.ts";'],
  [
    "functions/_lib/example.ts",
    'import { x } from "#src/data/content.ts";',
    'import { teamMember as x } from "#src/data/content-schema.ts";',
  ],
  [
    "scripts/runtime/example.mjs",
    'import { x } from "#tools/copy-check/copy-check.ts";',
    'import { x } from "#functions/_lib/http/http.ts";',
  ],
  [
    "scripts/bench/example.mjs",
    'import { x } from "../../e2e/helpers.ts";',
    'import { x } from "../runtime/server.mjs";',
  ],
  [
    "e2e/example.ts",
    'import { x } from "#tools/editor/groups.ts";',
    'import { x } from "../scripts/test/nu-checker.mjs";',
  ],
  ["tools/example.ts", 'import { x } from "../e2e/helpers.ts";', 'import { db as x } from "#db/client.ts";'],
])("the zone of %s", (file, refused, accepted) => {
  test(`refuses ${refused}`, async () => {
    expect(await restricted(file, refused)).toBe(true);
  });
  test(`accepts ${accepted}`, async () => {
    expect(await restricted(file, accepted)).toBe(false);
  });
});

test("db/test-setup.ts may start the embedded PostgreSQL of scripts/ (test setup is the one exception)", async () => {
  expect(await restricted("db/test-setup.ts", 'import { x } from "../scripts/runtime/embedded-db.mjs";')).toBe(false);
  expect(await restricted("db/test-setup.ts", 'import { x } from "#functions/_lib/http/http.ts";')).toBe(true);
});
