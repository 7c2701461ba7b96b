/**
 * The route table (src/shared/routes.ts) is the one list of the API's addresses: every function
 * serves only paths from it, and every entry is served by a function, so a caller that uses the table
 * cannot name an address nobody answers.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { fill, ROUTES, withQuery } from "#shared/routes.ts";
import { functionModules } from "./harness.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The shipped and server source files (tests, which call addresses as a client would, excepted). */
function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, encoding: "utf8" })
    .filter((file) => /\.(ts|tsx|astro)$/.test(file) && !/(\.test\.|_tests\/)/.test(file))
    .map((file) => path.join(dir, file));
}

/** Every string in the (nested) table. */
const tablePaths = (node: unknown): string[] =>
  typeof node === "string" ? [node] : Object.values(node as object).flatMap(tablePaths);

async function servedPaths(): Promise<string[]> {
  return (await functionModules()).flatMap(({ config }) => (config?.path ? [config.path].flat() : []));
}

describe("the route table", () => {
  test("names exactly the paths the functions serve (a trailing-slash twin counts as its path)", async () => {
    const served = new Set((await servedPaths()).map((p) => p.replace(/(.)\/$/, "$1")));
    expect([...served].sort()).toEqual([...new Set(tablePaths(ROUTES))].sort());
  });

  test("no source file outside the table spells an API address in a string", () => {
    const spelled = [...sourceFiles("src"), ...sourceFiles("functions"), ...sourceFiles("db")]
      .filter((file) => file !== path.join("src", "shared", "routes.ts"))
      .flatMap((file) =>
        readFileSync(path.join(ROOT, file), "utf8")
          .split("\n")
          .flatMap((line, i) => (/["'`]\/api\//.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(spelled).toEqual([]);
  });

  test("fill puts encoded values into a pattern's parameters", () => {
    expect(fill(ROUTES.admin.meetingCancel, { id: 42 })).toBe("/api/admin/meetings/42/cancel");
    expect(fill(ROUTES.newsletterLinks.confirm, { lang: "fa" })).toBe("/fa/newsletter/confirm");
    expect(fill("/a/:id", { id: "x/y" })).toBe("/a/x%2Fy");
  });

  test("withQuery adds a query string only when there is one", () => {
    expect(withQuery(ROUTES.meetings.availableSlots, { date: "2026-12-01" })).toBe(
      "/api/meetings/available-slots?date=2026-12-01",
    );
    expect(withQuery(ROUTES.admin.exportMeetings, new URLSearchParams())).toBe("/api/admin/export/meetings");
  });
});
