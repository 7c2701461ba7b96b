import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createTestDatabase, type TestDatabase } from "./testing.ts";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t?.destroy());

describe("when PostgreSQL ends a connection in use", () => {
  test("a transaction whose connection the server terminates fails by itself; the process lives and the pool serves again", async () => {
    const crashes: unknown[] = [];
    const onCrash = (error: unknown) => crashes.push(error);
    process.on("uncaughtException", onCrash);
    try {
      const outcome = await t.db
        .transaction()
        .execute(async (trx) => {
          const { rows } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(trx);
          // Another session ends this one between two statements, as a shutdown or a killed server does.
          const admin = new pg.Client({ connectionString: t.url });
          await admin.connect();
          await admin.query("SELECT pg_terminate_backend($1)", [rows[0].pid]);
          await admin.end();
          await new Promise((resolve) => setTimeout(resolve, 200));
          await sql`SELECT 1`.execute(trx);
        })
        .then(
          () => "committed",
          () => "failed",
        );
      expect(outcome).toBe("failed");
      expect(crashes).toEqual([]);
      const { rows } = await sql<{ one: number }>`SELECT 1 AS one`.execute(t.db);
      expect(rows[0].one).toBe(1);
    } finally {
      process.off("uncaughtException", onCrash);
    }
  });
});
