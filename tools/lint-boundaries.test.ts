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
    expect(await restricted("src/components/islands/Example.tsx", 'import { API as x } from "#shared/api.ts";')).toBe(
      false,
    );
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
