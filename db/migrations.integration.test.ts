import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { migrateDown, migrateToLatest } from "./migrate.ts";
import { migrations } from "./migrations/index.ts";
import { createTestDatabase, type TestDatabase } from "./testing.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
}, 60_000);
afterAll(() => database?.destroy());

const APP_TABLES = ["contact_submissions", "login_attempts", "meetings", "newsletter_subscribers", "users"];

async function tables(): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    SELECT table_name AS name FROM information_schema.tables
    WHERE table_schema = 'public' AND table_name NOT LIKE 'kysely_%' ORDER BY table_name`.execute(database.db);
  return rows.map((r) => r.name);
}

async function indexes(): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    SELECT indexname AS name FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexname`.execute(database.db);
  return rows.map((r) => r.name);
}

describe("migrations", () => {
  test("create every table with its indexes and constraints", async () => {
    expect(await tables()).toEqual(APP_TABLES);
    expect(await indexes()).toEqual(
      expect.arrayContaining([
        "contact_submissions_created_at_idx",
        "login_attempts_key_attempted_at_idx",
        "meetings_created_at_idx",
        "meetings_slot_unique",
        "newsletter_subscribers_email_unique",
        "users_username_key",
      ]),
    );
  });

  test("are already applied: migrating again does nothing", async () => {
    expect(await migrateToLatest(database.db)).toEqual([]);
  });

  test("go down, leaving no table behind, and up again", async () => {
    const names = Object.keys(migrations);

    expect(await migrateDown(database.db)).toEqual([names.at(-1)]);
    expect(await tables()).toEqual([]);
    expect(await migrateDown(database.db)).toEqual([]);

    expect(await migrateToLatest(database.db)).toEqual(names);
    expect(await tables()).toEqual(APP_TABLES);
  });

  test("are listed in the order their dated names sort", () => {
    const names = Object.keys(migrations);
    expect(names).toEqual([...names].sort());
  });
});
