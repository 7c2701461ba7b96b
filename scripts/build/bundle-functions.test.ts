/**
 * The deploy bundles: every function's entry loads its bundle and carries its config, and the
 * calendar worker ships inside the bundled functions (issue 29): sandbox.ts bundled with the
 * functions' own esbuild options, into a folder with no sources beside it, still expands a feed in
 * a worker and still cuts off a never-matching rule. Without the bundled worker code it would look
 * for expand-worker.ts next to itself, which Netlify's package does not hold.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { bundleFunctions, functionBuildOptions, workerDefines } from "./bundle-functions.mjs";

let out = "";
let sandbox: typeof import("../../functions/_lib/calendars/sandbox.ts");

beforeAll(async () => {
  out = mkdtempSync(path.join(tmpdir(), "bundle-worker-"));
  await build({
    ...functionBuildOptions(await workerDefines()),
    entryPoints: { bundle: "functions/_lib/calendars/sandbox.ts" },
    outdir: out,
    entryNames: "[name]",
    chunkNames: "chunks/[name]-[hash]",
  });
  sandbox = await import(pathToFileURL(path.join(out, "bundle.mjs")).href);
}, 120_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

const calendar = (...lines: string[]) =>
  [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "BEGIN:VEVENT",
    "UID:a@test",
    "DTSTAMP:20261101T000000Z",
    ...lines,
    "END:VEVENT",
    "END:VCALENDAR",
  ].join("\r\n");
const window = {
  from: Date.parse("2026-11-30T00:00:00Z"),
  to: Date.parse("2027-01-31T00:00:00Z"),
  timeZone: "Europe/Amsterdam",
};

describe("the bundled calendar worker", () => {
  test("the bundle is one file with the worker's code in it, no worker file beside it", () => {
    expect(readdirSync(out).filter((f) => /worker/i.test(f))).toEqual([]);
  });

  test("expands a feed in a worker, from a folder with no sources", async () => {
    const ics = calendar("DTSTART:20261201T090000Z", "DTEND:20261201T100000Z");
    expect(await sandbox.expandInWorker({ ics, ...window })).toMatchObject({
      events: 1,
      intervals: [{ start: Date.parse("2026-12-01T09:00:00Z") }],
    });
  });

  test("cuts off a never-matching rule at the time limit", async () => {
    const ics = calendar(
      "DTSTART:20261201T090000Z",
      "DTEND:20261201T100000Z",
      "RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30",
    );
    await expect(sandbox.expandInWorker({ ics, ...window }, 1_000)).rejects.toThrow("reading it took longer than 1 s");
  });
});

describe("the deployed entries", () => {
  // Each <name>/<name>.mjs is what Netlify loads: it must find its bundle beside it and carry the
  // function's own config (a wrong relative path here failed only in the deploy rehearsal).
  test("every function's entry imports, with its handler and its config", async () => {
    const dist = mkdtempSync(path.join(tmpdir(), "bundle-entries-"));
    try {
      const results = await bundleFunctions(process.cwd(), dist);
      expect(results.length).toBeGreaterThan(20);
      for (const { name, entry } of results) {
        const loaded = await import(pathToFileURL(entry).href);
        expect(typeof loaded.default, name).toBe("function");
        const source = (await import(pathToFileURL(path.resolve("functions", `${name}.ts`)).href)) as {
          config: unknown;
        };
        expect(loaded.config, name).toEqual(source.config);
      }
    } finally {
      rmSync(dist, { recursive: true, force: true });
      rmSync(`${dist}.json`, { force: true });
    }
  }, 180_000);
});
