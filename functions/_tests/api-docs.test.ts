/**
 * docs/api.md's endpoint table lists exactly the functions' paths and methods. The paths come from
 * each module's exported `config.path`; the methods from `config.method` when a function declares
 * it, else from the `Allow` header of the 405 it answers to a method it does not serve (its router
 * decides before anything else runs). Paths that one handler serves share its `Allow`, so the
 * methods are compared per function: each documented method must be allowed on its path, and every
 * method a function allows must be documented on one of its paths.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Context } from "@netlify/functions";
import { describe, expect, test } from "vitest";
import { functionModules } from "./harness.ts";

const FUNCTIONS = path.resolve(import.meta.dirname, "..");
const API_DOC = path.resolve(FUNCTIONS, "../docs/api.md");

/** A path as a table row names it: the trailing slash of a twin (`/confirm/`, `/confirm`) dropped. */
const normal = (p: string) => (p.length > 1 ? p.replace(/\/+$/, "") : p);

/** { file, path, methods } for every path of every function, from the modules themselves. */
async function served() {
  const rows: { file: string; path: string; methods: string[] }[] = [];
  for (const { file, handler, config } of await functionModules()) {
    if (!config?.path) continue; // a scheduled function has no address
    for (const p of [config.path].flat()) {
      let methods: string[];
      if (config.method) methods = [config.method].flat().map((m) => m.toUpperCase());
      else {
        const url = `http://localhost${p.replaceAll(":id", "1").replaceAll(":lang", "en")}`;
        const res = await handler(new Request(url, { method: "OPTIONS" }), {
          params: { id: "1", lang: "en" },
        } as unknown as Context);
        expect(res.status, `${file} ${p} answers OPTIONS`).toBe(405);
        methods = (res.headers.get("allow") ?? "")
          .split(",")
          .map((m) => m.trim())
          .filter(Boolean);
      }
      rows.push({ file, path: normal(p), methods });
    }
  }
  return rows;
}

/** { path, methods } for every row of the table under "## Endpoints" in docs/api.md. */
function documented() {
  const text = readFileSync(API_DOC, "utf8");
  const section = text.slice(text.indexOf("## Endpoints"), text.indexOf("\n## ", text.indexOf("## Endpoints") + 1));
  const rows: { path: string; methods: string[] }[] = [];
  for (const line of section.split("\n")) {
    const cells = line.split("|").map((cell) => cell.trim());
    if (cells.length < 4 || !cells[2].startsWith("`/")) continue;
    rows.push({
      path: normal(cells[2].replaceAll("`", "")),
      methods: [...cells[1].matchAll(/`([A-Z]+)`/g)].map((match) => match[1]),
    });
  }
  return rows;
}

describe("docs/api.md", () => {
  test("lists exactly the functions' paths, each once", async () => {
    const paths = [...new Set((await served()).map((row) => row.path))].sort();
    const listed = documented().map((row) => row.path);
    expect(
      listed.filter((p, i) => listed.indexOf(p) !== i),
      "listed twice",
    ).toEqual([]);
    expect([...listed].sort()).toEqual(paths);
  });

  test("lists only methods a path answers, and every method each function answers", async () => {
    const rows = await served();
    const table = new Map(documented().map((row) => [row.path, row.methods]));
    const wrong: string[] = [];
    for (const row of rows) {
      const listed = table.get(row.path) ?? [];
      if (!listed.length) wrong.push(`${row.path}: no method listed`);
      for (const method of listed)
        if (!row.methods.includes(method)) wrong.push(`${method} ${row.path}: the function answers 405`);
    }
    for (const file of new Set(rows.map((row) => row.file))) {
      const own = rows.filter((row) => row.file === file);
      const allowed = new Set(own.flatMap((row) => row.methods));
      const listed = new Set(own.flatMap((row) => table.get(row.path) ?? []));
      for (const method of allowed)
        if (!listed.has(method)) wrong.push(`${file} answers ${method}, which no row of its paths lists`);
    }
    expect(wrong).toEqual([]);
  });
});
