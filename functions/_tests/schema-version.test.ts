/**
 * A function instance refuses to work on a database whose schema is not the one its code was built
 * for: 503 with Retry-After and a log line naming the migrations that differ, checked once per
 * instance (on its first query).
 */
import { bookingAsBefore } from "#db/testing.ts";
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { closeDb } from "#db/client.ts";
import { migrations } from "#db/migrations/index.ts";
import contact from "../contact.ts";
import meetings from "../meetings.ts";
import { call, setupApiDatabase } from "./harness.ts";

let db: Awaited<ReturnType<typeof setupApiDatabase>>;
beforeAll(async () => {
  db = await setupApiDatabase();
  await bookingAsBefore(db.db);
}, 60_000);
afterEach(async () => {
  vi.restoreAllMocks();
  await closeDb(); // the next test is a new instance
});
afterAll(async () => {
  await db?.destroy();
});

const latest = Object.keys(migrations).at(-1)!;
const slots = () => call(meetings, "/api/meetings/available-slots?date=2030-01-07");

describe("schema version check", () => {
  test("a database that matches the code is served", async () => {
    expect((await slots()).status).toBe(200);
  });

  test("a database newer than the code (a migration it does not know) answers 503 and logs why", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    await sql`INSERT INTO kysely_migration (name, timestamp) VALUES ('2099-01-01T00-00_from-the-future', now())`.execute(
      db.db,
    );
    try {
      const answer = await call(contact, "/api/contact", {
        body: { firstName: "Sara", lastName: "Rahimi", email: "s@example.com", service: "x", message: "0123456789ab" },
      });
      expect(answer.status).toBe(503);
      expect(answer.headers.get("retry-after")).toBe("30");
      expect(answer.json.message).not.toMatch(/migration|schema/i);
      expect(errors.mock.calls.flat().join(" ")).toMatch(/newer than the code, has 2099-01-01T00-00_from-the-future/);
      expect(await db.db.selectFrom("enquiries").select("id").execute()).toEqual([]);
    } finally {
      await sql`DELETE FROM kysely_migration WHERE name = '2099-01-01T00-00_from-the-future'`.execute(db.db);
    }
  });

  test("a database older than the code (a migration not applied) answers 503 and logs which", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const [row] = await sql<{ timestamp: string }>`SELECT timestamp FROM kysely_migration WHERE name = ${latest}`
      .execute(db.db)
      .then((r) => r.rows);
    await sql`DELETE FROM kysely_migration WHERE name = ${latest}`.execute(db.db);
    try {
      expect((await slots()).status).toBe(503);
      expect(errors.mock.calls.flat().join(" ")).toContain(`older than the code, missing ${latest}`);
    } finally {
      await sql`INSERT INTO kysely_migration (name, timestamp) VALUES (${latest}, ${row.timestamp})`.execute(db.db);
    }
  });
});
