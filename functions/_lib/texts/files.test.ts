/**
 * The texts' files are written atomically and in order (issue 29: a load during a save read an empty
 * locale file, "JsonSyntaxError: The file is empty"). Real processes, real files, real kills.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, test } from "vitest";
import { LockTimeoutError, withFileLock, writeFileAtomic } from "./files.ts";

const MODULE = pathToFileURL(path.resolve("functions/_lib/texts/files.ts")).href;
let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));
const fresh = () => (dir = mkdtempSync(path.join(tmpdir(), "texts-files-")));

/** Runs `body` (an ES module's text, with `withFileLock` and `writeFileAtomic` imported) in its own Node process. */
function child(body: string) {
  const script = path.join(dir, `child-${Math.random().toString(36).slice(2)}.mjs`);
  // `forever` keeps the process alive (a promise alone does not) until the test kills it.
  writeFileSync(
    script,
    `import { withFileLock, writeFileAtomic } from ${JSON.stringify(MODULE)};\n` +
      `const forever = () => { setInterval(() => {}, 1000); return new Promise(() => {}); };\n${body}`,
  );
  const proc = spawn(process.execPath, [script], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  proc.stdout.on("data", (chunk) => (out += chunk));
  proc.stderr.on("data", (chunk) => (out += chunk));
  const exited = new Promise<number | null>((resolve) => proc.on("close", (code) => resolve(code)));
  const said = (word: string) =>
    new Promise<void>((resolve, reject) => {
      const timer = setInterval(() => {
        if (out.includes(word)) resolve(clearInterval(timer));
      }, 5);
      exited.then(() => (out.includes(word) ? resolve() : reject(new Error(`child ended without "${word}": ${out}`))));
    });
  return { proc, exited, said, output: () => out };
}

describe("writeFileAtomic", () => {
  test("a process killed between writing and renaming leaves the old file whole; the next write clears its leftover", async () => {
    fresh();
    const file = path.join(dir, "nl.json");
    const old = `${JSON.stringify({ hero: { title: "Oud" } }, null, 2)}\n`;
    writeFileSync(file, old);
    const writer = child(`
      await writeFileAtomic(${JSON.stringify(file)}, JSON.stringify({ hero: { title: "Nieuw" } }), {
        beforeRename: () => { console.log("written"); return forever(); },
      });
    `);
    await writer.said("written");
    writer.proc.kill("SIGKILL");
    expect(await writer.exited).toBeNull();
    expect(readFileSync(file, "utf8")).toBe(old);
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toHaveLength(1);
    await writeFileAtomic(file, '{"hero":{"title":"Nieuw"}}\n');
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ hero: { title: "Nieuw" } });
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  test("a process killed after the rename leaves the new file whole", async () => {
    fresh();
    const file = path.join(dir, "nl.json");
    writeFileSync(file, '{"a":"old"}\n');
    const writer = child(`
      await writeFileAtomic(${JSON.stringify(file)}, '{"a":"new"}\\n');
      console.log("renamed");
      await forever();
    `);
    await writer.said("renamed");
    writer.proc.kill("SIGKILL");
    await writer.exited;
    expect(readFileSync(file, "utf8")).toBe('{"a":"new"}\n');
  });

  test("a reader reading all the time never sees a half-written or empty file (20 writes of 200 KB)", async () => {
    fresh();
    const file = path.join(dir, "fa.json");
    const body = (n: number) => `${JSON.stringify({ n, text: "ی".repeat(100_000) })}\n`;
    writeFileSync(file, body(0));
    let reading = true;
    let reads = 0;
    const reader = (async () => {
      while (reading) {
        const text = readFileSync(file, "utf8");
        expect(() => JSON.parse(text)).not.toThrow();
        reads++;
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    for (let n = 1; n <= 20; n++) await writeFileAtomic(file, body(n));
    reading = false;
    await reader;
    // (the reader checks every read it makes)
    expect(reads).toBeGreaterThan(10);
    expect(JSON.parse(readFileSync(file, "utf8")).n).toBe(20);
  });
});

describe("withFileLock", () => {
  test("serialises across processes: 2 processes x 6 read-modify-writes of one file lose no update", async () => {
    fresh();
    const file = path.join(dir, "counter.json");
    const lock = path.join(dir, "save.lock");
    writeFileSync(file, '{"saves":[]}\n');
    const writers = ["a", "b"].map((name) =>
      child(`
        import { readFile } from "node:fs/promises";
        for (let i = 1; i <= 6; i++)
          await withFileLock(${JSON.stringify(lock)}, async () => {
            const now = JSON.parse(await readFile(${JSON.stringify(file)}, "utf8"));
            await new Promise((resolve) => setTimeout(resolve, 20)); // a slow save: others wait
            now.saves.push("${name}" + i);
            await writeFileAtomic(${JSON.stringify(file)}, JSON.stringify(now) + "\\n");
          });
        console.log("done");
      `),
    );
    expect(await Promise.all(writers.map((w) => w.exited))).toEqual([0, 0]);
    const saves: string[] = JSON.parse(readFileSync(file, "utf8")).saves;
    expect(saves.toSorted()).toEqual(["a1", "a2", "a3", "a4", "a5", "a6", "b1", "b2", "b3", "b4", "b5", "b6"].sort());
    expect(existsSync(lock)).toBe(false);
  });

  test("a lock left by a killed process is taken over; a live holder's lock is waited for, up to the limit", async () => {
    fresh();
    const lock = path.join(dir, "save.lock");
    const holder = child(`
      await withFileLock(${JSON.stringify(lock)}, async () => { console.log("holding"); await forever(); });
    `);
    await holder.said("holding");
    await expect(withFileLock(lock, async () => "mine", { waitMs: 300 })).rejects.toBeInstanceOf(LockTimeoutError);
    holder.proc.kill("SIGKILL");
    await holder.exited;
    expect(existsSync(lock)).toBe(true);
    expect(await withFileLock(lock, async () => "mine", { waitMs: 2_000 })).toBe("mine");
    expect(existsSync(lock)).toBe(false);
  });

  test("a lock file that is not ours is not removed by our release, and a garbled one counts as stale", async () => {
    fresh();
    const lock = path.join(dir, "save.lock");
    writeFileSync(lock, "garbage");
    expect(await withFileLock(lock, async () => 1, { waitMs: 2_000 })).toBe(1);
    await withFileLock(lock, async () => writeFileSync(lock, JSON.stringify({ pid: process.pid, token: "other" })));
    expect(readFileSync(lock, "utf8")).toContain("other");
  });
});
