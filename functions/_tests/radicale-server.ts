/**
 * Debian's radicale (a CalDAV server) on a free loopback port with basic auth, for the tests that
 * read a real calendar (functions/_tests/schedule.test.ts). radicale is installed by `npm test` and
 * `.ci/run` as root; without it `startRadicale` throws a message that says how to install it.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

/** A port the system says is free now (radicale takes no port 0). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Waits until radicale answers on `base` (polling, bounded by a deadline, not a fixed sleep). */
async function waitForServer(base: string, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`radicale stopped (exit ${child.exitCode}):\n${output()}`);
    try {
      await fetch(base);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`radicale did not answer on ${base} within 30 s:\n${output()}`);
}

/** A started radicale: its address, a CalDAV request with the user's credentials, and `stop()`. */
export async function startRadicale(user: string, password: string) {
  if (spawnSync("radicale", ["--version"]).error)
    throw new Error(
      "radicale (a CalDAV server) is required for this test and is not installed. " +
        "Install it with `sudo apt-get install -y radicale` and run the test again (`npm test` installs it when run as root).",
    );
  const folder = mkdtempSync(path.join(tmpdir(), "radicale-"));
  writeFileSync(path.join(folder, "users"), `${user}:${password}\n`);
  const port = await freePort();
  let output = "";
  const child = spawn(
    "radicale",
    [
      `--storage-filesystem-folder=${path.join(folder, "collections")}`,
      "--auth-type=htpasswd",
      `--auth-htpasswd-filename=${path.join(folder, "users")}`,
      "--auth-htpasswd-encryption=plain",
      `--server-hosts=127.0.0.1:${port}`,
      "--logging-level=warning",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitForServer(base, child, () => output);
  } catch (error) {
    child.kill("SIGTERM");
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
  const authorization = `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
  return {
    base,
    /** A CalDAV request as the user; throws unless it succeeds. */
    async dav(method: string, url: string, body?: string) {
      const res = await fetch(url, {
        method,
        headers: { authorization, ...(body && { "content-type": "text/calendar; charset=utf-8" }) },
        body,
      });
      if (res.status >= 300) throw new Error(`${method} ${url}: HTTP ${res.status}`);
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
