import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startEmbeddedDatabase } from "./embedded-db.mjs";

// `npm start` when it cannot start: one plain sentence saying why and what to do, exit code 1, no
// stack trace. Each case fails before the build, so no test here builds the site.
let work: string;
beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), "start-fails-"));
  // As root the postgres user must reach the cluster, or it is kept elsewhere (postgres-as-root.mjs).
  chmodSync(work, 0o755);
});
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

/** Runs scripts/runtime/start.mjs with only these variables; resolves with its exit code and output. */
function start(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [path.resolve("scripts/runtime/start.mjs")], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? work,
      ...(process.env.EMBEDDED_POSTGRES_ROOT_DIR && {
        EMBEDDED_POSTGRES_ROOT_DIR: process.env.EMBEDDED_POSTGRES_ROOT_DIR,
      }),
      HOST: "127.0.0.1",
      PORT: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, output })));
}

/** The one line of the failure; fails the test when there is more than that, or a stack trace. */
function failureLine(output: string): string {
  const lines = output.trim().split("\n");
  expect(output).not.toMatch(/^\s+at /m);
  expect(lines.filter((line) => line.startsWith("Could not start:"))).toHaveLength(1);
  return lines.find((line) => line.startsWith("Could not start:"))!;
}

describe("npm start that cannot start says why in one sentence", () => {
  test("the site's port is taken by another program", { timeout: 60_000 }, async () => {
    const other = net.createServer();
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    const { port } = other.address() as net.AddressInfo;
    try {
      const { code, output } = await start({ DATA_DIR: path.join(work, "port"), PORT: String(port) });
      expect(code).toBe(1);
      expect(failureLine(output)).toBe(
        `Could not start: Port ${port} is already in use by another program: stop it, or set PORT to a free port (PORT=${port + 1} npm start).`,
      );
    } finally {
      other.close();
    }
  });

  test("the data folder is a file", { timeout: 60_000 }, async () => {
    const file = path.join(work, "a-file");
    writeFileSync(file, "not a folder\n");
    const { code, output } = await start({ DATA_DIR: path.join(file, "data") });
    expect(code).toBe(1);
    expect(failureLine(output)).toBe(
      `Could not start: The data folder ${path.join(file, "data")} cannot be used (a file is in the way of a folder): fix it, or set DATA_DIR to another folder (or DATABASE_URL to a PostgreSQL server).`,
    );
  });

  test("the database folder was made by another PostgreSQL version", { timeout: 120_000 }, async () => {
    const dataDir = path.join(work, "old-version");
    const made = await startEmbeddedDatabase({ dataDir, log: {} });
    await made.close();
    writeFileSync(path.join(dataDir, "postgres", "PG_VERSION"), "9.6\n");
    const { code, output } = await start({ DATA_DIR: dataDir });
    expect(code).toBe(1);
    expect(failureLine(output)).toMatch(
      /^Could not start: The database in \S+ was made by another PostgreSQL version \(PostgreSQL 9\.6; this is \d+\.\d+\): move that folder away to start afresh, or set DATA_DIR to another folder \(PostgreSQL's own words are in \S+postgres-start\.log\)\.$/,
    );
  });
});
