import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, test } from "vitest";
import { startEmbeddedDatabase, THROWAWAY_SETTINGS } from "./embedded-db.mjs";

const asRoot = process.getuid?.() === 0;
const folders: string[] = [];
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

describe.runIf(asRoot)("the embedded PostgreSQL as root", () => {
  test("starts when its data folder lies inside a folder only root can enter, keeping the cluster where postgres can reach it", async () => {
    const closed = mkdtempSync(path.join(tmpdir(), "root-only-"));
    const base = mkdtempSync(path.join(tmpdir(), "root-base-"));
    folders.push(closed, base);
    expect(statSync(closed).mode & 0o777).toBe(0o700);
    process.env.EMBEDDED_POSTGRES_ROOT_DIR = base;
    const lines: string[] = [];
    const server = await startEmbeddedDatabase({
      dataDir: path.join(closed, "data"),
      settings: THROWAWAY_SETTINGS,
      log: { log: (line: string) => lines.push(line) },
    }).finally(() => delete process.env.EMBEDDED_POSTGRES_ROOT_DIR);
    try {
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      const { rows } = await client.query("SELECT current_setting('data_directory') AS dir");
      await client.end();
      expect(rows[0].dir.startsWith(base)).toBe(true);
      expect(lines.join("\n")).toContain("cannot enter");
      // npm start names this folder ("Embedded PostgreSQL: <cluster> on …"), not DATA_DIR/postgres.
      expect(server.cluster).toBe(rows[0].dir);
      // What root keeps for postgres is root's own and nobody else may change it.
      expect(statSync(base).uid).toBe(0);
      expect(statSync(base).mode & 0o022).toBe(0);
    } finally {
      await server.close();
    }
  });
});
