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

const APP_TABLES = [
  "contact_submissions",
  "email_outbox",
  "login_attempts",
  "meetings",
  "newsletter_subscribers",
  "users",
];

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
        "contact_submissions_created_at_id_idx",
        "email_outbox_status_next_attempt_at_idx",
        "login_attempts_key_attempted_at_idx",
        "meetings_created_at_id_idx",
        "meetings_slot_unique",
        "newsletter_subscribers_email_unique",
        "users_username_key",
      ]),
    );
  });

  test("are already applied: migrating again does nothing", async () => {
    expect(await migrateToLatest(database.db)).toEqual([]);
  });

  test("go down one at a time, leaving no table behind, and up again", async () => {
    const names = Object.keys(migrations);

    for (const name of [...names].reverse()) expect(await migrateDown(database.db)).toEqual([name]);
    expect(await tables()).toEqual([]);
    expect(await migrateDown(database.db)).toEqual([]);

    expect(await migrateToLatest(database.db)).toEqual(names);
    expect(await tables()).toEqual(APP_TABLES);
  });

  test("notifications: records from before it speak English and start their invites at sequence 0", async () => {
    const later = Object.keys(migrations).slice(Object.keys(migrations).indexOf("2026-11-22T00-00_notifications"));
    for (let i = 0; i < later.length; i++) await migrateDown(database.db);
    await sql`INSERT INTO contact_submissions (first_name, last_name, email, service, message) VALUES ('Ada', 'Lovelace', 'ada@example.com', 'other', 'An older enquiry.')`.execute(
      database.db,
    );
    await sql`INSERT INTO meetings (name, email, phone, date, time) VALUES ('Ada', 'ada@example.com', '+31 20 123 4567', '2026-12-01', '10:00')`.execute(
      database.db,
    );

    expect(await migrateToLatest(database.db)).toEqual(later);

    const {
      rows: [submission],
    } = await sql<{ language: string }>`SELECT language FROM contact_submissions`.execute(database.db);
    const {
      rows: [meeting],
    } = await sql<{
      language: string;
      invite_sequence: number;
    }>`SELECT language, invite_sequence FROM meetings`.execute(database.db.withoutPlugins());
    expect(submission.language).toBe("en");
    expect(meeting).toEqual({ language: "en", invite_sequence: 0 });
  });

  test("are listed in the order their dated names sort", () => {
    const names = Object.keys(migrations);
    expect(names).toEqual([...names].sort());
  });
});
