/**
 * The editor's live preview (`npm run dev`): an edit to a locale file shows on the page at the first
 * request after the dev server has seen it, even with a built dist/ beside it (the dev server renders
 * src/, never dist/). Runs Astro's dev server in a throwaway copy of the project. How soon the server
 * sees an edit follows the machine's load (a loaded run took over 2 s), so the test waits for the
 * server's own sign that it has (the copy check it runs on every locale change), not a number of seconds.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";

const repoRoot = path.resolve(import.meta.dirname, "../..");
const COPY = [
  "src",
  "server",
  "tools",
  "public",
  "scripts",
  "functions",
  "db",
  "astro.config.mjs",
  "package.json",
  "tsconfig.json",
  "netlify.toml",
];
let root = "";
let dev: ChildProcess | undefined;
let url = "";
/** Everything the dev server has printed so far. */
let output = "";

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), "live-preview-"));
  for (const entry of COPY) cpSync(path.join(repoRoot, entry), path.join(root, entry), { recursive: true });
  symlinkSync(path.join(repoRoot, "node_modules"), path.join(root, "node_modules"));
  // A stale build, as after `npm run build` or `npm start`: the preview must not serve it.
  mkdirSync(path.join(root, "dist", "nl"), { recursive: true });
  writeFileSync(path.join(root, "dist", "nl", "index.html"), "<!doctype html><title>stale build</title>");
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  dev = spawn(
    process.execPath,
    ["node_modules/astro/bin/astro.mjs", "dev", "--host", "127.0.0.1", "--port", String(port)],
    {
      cwd: root,
      // As `npm run dev` runs it: without the test runner's variables (VITEST, NODE_ENV=test), which Vite
      // and Astro read as "inside a test" and answer nothing.
      env: {
        ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(VITEST|NODE_ENV|TEST)/.test(name))),
        ASTRO_TELEMETRY_DISABLED: "1",
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  dev.stdout!.on("data", (chunk) => (output += chunk));
  dev.stderr!.on("data", (chunk) => (output += chunk));
  for (let i = 0; i < 240; i++) {
    if (
      await fetch(`${url}/nl/`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`astro dev did not answer within 60 s:\n${output}`);
}, 90_000);

afterAll(() => {
  dev?.kill();
  if (root) rmSync(root, { recursive: true, force: true });
});

/**
 * How many lines the copy check has printed: two when the server starts (the preview's address, the
 * first result), then one result (or one warning) after each change the file watcher sees to a locale file.
 */
const copyChecks = () => output.match(/\[copy-check\]/g)?.length ?? 0;

test("an edit to nl.json shows on /nl/ once the dev server has seen it, while a dist/ exists", async () => {
  const first = await (await fetch(`${url}/nl/`)).text();
  expect(first).not.toContain("stale build");

  const file = path.join(root, "src", "i18n", "locales", "nl.json");
  const locale = JSON.parse(readFileSync(file, "utf8"));
  const marker = `Proefkop ${Date.now()}`;
  const key = Object.keys(locale.hero).find(
    (k) => typeof locale.hero[k] === "string" && first.includes(locale.hero[k]),
  )!;
  expect(key, "a hero text shown on /nl/").toBeDefined();
  // The copy check at start has printed its result (it runs before the server answers).
  await expect.poll(copyChecks, { timeout: 60_000 }).toBeGreaterThan(1);
  const checksBefore = copyChecks();
  locale.hero[key] = marker;
  writeFileSync(file, `${JSON.stringify(locale, null, 2)}\n`);

  // The watcher's change event reaches Vite's module graph before the copy check's timer (150 ms) runs.
  await expect
    .poll(copyChecks, { timeout: 60_000, message: "the dev server saw the edit" })
    .toBeGreaterThan(checksBefore);
  const page = await (await fetch(`${url}/nl/`)).text();
  expect(page.includes(marker), "the edited text on /nl/ at the next request").toBe(true);
}, 90_000);
