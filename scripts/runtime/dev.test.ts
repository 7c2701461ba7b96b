/**
 * The editor's live preview (`npm run dev`): an edit to a locale file shows on the page within 2 s,
 * even with a built dist/ beside it (the dev server renders src/, never dist/). Runs Astro's dev
 * server in a throwaway copy of the project.
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
  let output = "";
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

test("an edit to nl.json shows on /nl/ within 2 s while a dist/ exists", async () => {
  const first = await (await fetch(`${url}/nl/`)).text();
  expect(first).not.toContain("stale build");

  const file = path.join(root, "src", "i18n", "locales", "nl.json");
  const locale = JSON.parse(readFileSync(file, "utf8"));
  const marker = `Proefkop ${Date.now()}`;
  const key = Object.keys(locale.hero).find(
    (k) => typeof locale.hero[k] === "string" && first.includes(locale.hero[k]),
  )!;
  expect(key, "a hero text shown on /nl/").toBeDefined();
  locale.hero[key] = marker;
  writeFileSync(file, `${JSON.stringify(locale, null, 2)}\n`);
  const edited = Date.now();

  let shown = false;
  while (!shown && Date.now() - edited < 2_000) {
    shown = (await (await fetch(`${url}/nl/`)).text()).includes(marker);
    if (!shown) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(shown, "the edited text on /nl/ within 2 s").toBe(true);
});
