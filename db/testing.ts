/**
 * Throwaway databases for the integration tests. One PostgreSQL server per test run (the embedded
 * one, or TEST_DATABASE_URL's) holds a migrated template, made once by `db/test-setup.ts`; each test
 * file gets its own copy of it (`CREATE DATABASE … TEMPLATE`, milliseconds), dropped afterwards.
 */
import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, expect, inject } from "vitest";
import { createDb } from "./client.ts";
import { CallerRecorder } from "./test-callers.ts";
import type { Database } from "./types.ts";
import { FIRST_CONSULTANT_ID } from "#shared/consultants.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** Set by db/test-setup.ts: the server and the name of its migrated template database. */
    testDatabase: { serverUrl: string; template: string; kind: TestDatabase["kind"]; recordsFiles: boolean };
  }
}

export type TestDatabase = {
  db: Kysely<Database>;
  /** Connection string of the throwaway database, for code that opens its own client. */
  url: string;
  /** Which server: the embedded PostgreSQL of this run, or TEST_DATABASE_URL's. */
  kind: "embedded" | "postgres";
  destroy(): Promise<void>;
};

/** A fresh, fully migrated database for one test file. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const { serverUrl, template, kind, recordsFiles } = inject("testDatabase");
  const name = `test_${randomBytes(6).toString("hex")}`;
  await withClient(serverUrl, async (admin) => {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
    // Which file's statements run in it (db/test-setup.ts, SQL_COVERAGE_FILE).
    if (recordsFiles)
      await admin.query("INSERT INTO test_files SELECT oid, $2 FROM pg_database WHERE datname = $1", [
        name,
        expect.getState().testPath,
      ]);
  });
  const url = databaseUrl(serverUrl, name);
  const pooled = createDb(url);
  // Who ran each statement (db/test-callers.ts): the file's own reads are left out of its record.
  const callers = recordsFiles ? new CallerRecorder() : undefined;
  const db = callers ? pooled.withPlugin(callers) : pooled;
  return {
    db,
    url,
    kind,
    async destroy() {
      await pooled.destroy();
      if (callers)
        await withClient(serverUrl, (admin) =>
          admin.query(
            `INSERT INTO test_callers (shape, own)
               SELECT shape, true FROM unnest($1::text[]) AS shape
               UNION ALL SELECT shape, false FROM unnest($2::text[]) AS shape`,
            [[...callers.ownReads], [...callers.product]],
          ),
        );
      // DROP … WITH (FORCE) also ends anything the test opened on its own (a second pool, a leaked client).
      await withClient(serverUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/** The URL of database `name` on the server of `serverUrl`. */
export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs `work` on a single connection to the server's maintenance database. */
export async function withClient<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A fresh database for the test file that calls this (at its top level): created before its first
 * test, dropped after its last. Read `.db` or `.url` inside tests and hooks.
 */
export function useTestDatabase(): Omit<TestDatabase, "destroy"> {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
  }, 60_000);
  afterAll(() => database?.destroy());
  const ready = () => {
    if (!database) throw new Error("useTestDatabase(): the database exists inside tests and hooks only");
    return database;
  };
  return {
    get db() {
      return ready().db;
    },
    get url() {
      return ready().url;
    },
    get kind() {
      return ready().kind;
    },
  };
}

/**
 * What booking tests written before consultants assume of an install: one consultant (the first
 * admin account's, made here unless there is one) and the guardrails of an upgraded install, no
 * notice and changes until the start. Returns the consultant's id.
 */
export async function bookingAsBefore(db: Kysely<Database>): Promise<string> {
  const existing = await db.selectFrom("consultants").select("id").orderBy("createdAt").executeTakeFirst();
  if (!existing) {
    const user = await db
      .insertInto("users")
      .values({ username: "first-consultant", password: "!", role: "admin" })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db.insertInto("consultants").values({ id: FIRST_CONSULTANT_ID, userId: user.id }).execute();
  }
  await db.updateTable("officeSettings").set({ noticeMinutes: 0, changeCutoffMinutes: 0 }).execute();
  return existing?.id ?? FIRST_CONSULTANT_ID;
}

/** What a meeting a test stores directly needs: the install's one consultant (bookingAsBefore) and why. */
export async function firstConsultantMeeting(
  db: Kysely<Database>,
): Promise<{ consultantId: string; assignment: { rule: "chosen" } }> {
  return { consultantId: await bookingAsBefore(db), assignment: { rule: "chosen" } };
}
