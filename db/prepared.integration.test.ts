import { sql } from "kysely";
import { describe, expect, test, vi } from "vitest";
import { createDb, openPool } from "./client.ts";
import { isDatabaseUnavailable } from "./errors.ts";
import { createEnquiry, enquiryPageQuery, ENQUIRY_ORDERS, listEnquiries } from "./enquiries.repository.ts";
import { cursorKey, InvalidCursorError } from "./paging.ts";
import { prepare } from "./prepared.ts";
import { useTestDatabase } from "./testing.ts";
import type { Database } from "./types.ts";

const database = useTestDatabase();

const byEmail = prepare<Database, { email: string; rows: number }, { id: number; email: string }>(
  ["email", "rows"],
  (db, { email, rows }) =>
    db.selectFrom("enquiries").select(["id", "email"]).where("email", "=", email).orderBy("id").limit(rows),
);

const enquiry = (email: string) => ({
  firstName: "Ada",
  lastName: "Lovelace",
  email,
  service: "startup-visa",
  message: "We would like to open an office in Amsterdam.",
});

describe("prepare", () => {
  test("builds and compiles once per client, then sends each call's values", async () => {
    await database.db.deleteFrom("enquiries").execute();
    await createEnquiry(database.db, enquiry("a@example.com"));
    await createEnquiry(database.db, enquiry("a@example.com"));
    await createEnquiry(database.db, enquiry("b@example.com"));
    const build = vi.fn((_db, { date }) => sql<{ day: string }>`SELECT ${date}::date::text AS day`);
    const day = prepare<Database, { date: string }, { day: string }>(["date"], build);

    expect(await day(database.db, { date: "2026-11-27" })).toEqual([{ day: "2026-11-27" }]);
    expect(await day(database.db, { date: "2027-01-02" })).toEqual([{ day: "2027-01-02" }]);
    expect(build).toHaveBeenCalledTimes(1);
    expect((await byEmail(database.db, { email: "a@example.com", rows: 5 })).length).toBe(2);
    expect((await byEmail(database.db, { email: "a@example.com", rows: 1 })).length).toBe(1);
    expect(await byEmail(database.db, { email: "c@example.com", rows: 5 })).toEqual([]);

    // Another client (another database) compiles its own.
    const other = createDb(database.url);
    try {
      expect(await day(other, { date: "2026-02-28" })).toEqual([{ day: "2026-02-28" }]);
      expect(build).toHaveBeenCalledTimes(2);
    } finally {
      await other.destroy();
    }
  });

  test("a value is only ever a parameter: SQL in it is text, not SQL", async () => {
    await database.db.deleteFrom("enquiries").execute();
    await createEnquiry(database.db, enquiry("a@example.com"));
    for (const email of ["' OR '1'='1", "a@example.com'; DROP TABLE enquiries; --", "\\'; SELECT 1; --", "$1"])
      expect(await byEmail(database.db, { email, rows: 5 })).toEqual([]);
    const { count } = await database.db
      .selectFrom("enquiries")
      .select((eb) => eb.fn.countAll<string>().as("count"))
      .executeTakeFirstOrThrow();
    expect(Number(count)).toBe(1);
  });

  test("a builder that computes with a stand-in is refused on its first call, with the name", async () => {
    const arithmetic = prepare<Database, { limit: number }, { id: number }>(["limit"], (db, { limit }) =>
      db
        .selectFrom("enquiries")
        .select("id")
        .limit(limit + 1),
    );
    await expect(arithmetic(database.db, { limit: 5 })).rejects.toThrow(/"limit" is not a parameter/);
    const tested = prepare<Database, { q: string }, { id: number }>(["q"], (db, { q }) =>
      db
        .selectFrom("enquiries")
        .select("id")
        .$if(!q, (query) => query.where("id", "=", 0)),
    );
    await expect(tested(database.db, { q: "" })).rejects.toThrow(/"q" is not a parameter/);
  });
});

describe("a prepared read on an open pool", () => {
  // Nested keys too: CamelCasePlugin maps the keys of JSON values, and the slots read returns some.
  const nested = prepare<Database, { email: string }, Record<string, unknown>>(
    ["email"],
    (_db, { email }) =>
      sql`SELECT ${email}::text AS e_mail, json_build_object('first_name', 'Ada', 'opening_hours', json_build_array(json_build_object('week_day', 1))) AS the_rules`,
  );

  test("goes to the pool straight and maps its rows as Kysely does", async () => {
    const db = createDb(database.url);
    try {
      expect(openPool(db)).toBeUndefined();
      const first = await nested(db, { email: "a@example.com" }); // through Kysely: opens the pool
      const pool = openPool(db)!;
      expect(pool).toBeDefined();
      const query = vi.spyOn(pool, "query");
      const direct = await nested(db, { email: "a@example.com" });
      expect(query).toHaveBeenCalledTimes(1);
      expect(direct).toEqual(first);
      expect(direct).toEqual([
        { eMail: "a@example.com", theRules: { firstName: "Ada", openingHours: [{ weekDay: 1 }] } },
      ]);
      // A transaction's client is not the pool's: the read runs on the transaction's connection.
      await db.transaction().execute(async (trx) => {
        expect(openPool(trx)).toBeUndefined();
        expect(await nested(trx, { email: "b@example.com" })).toEqual([
          { eMail: "b@example.com", theRules: { firstName: "Ada", openingHours: [{ weekDay: 1 }] } },
        ]);
      });
      expect(query).toHaveBeenCalledTimes(1);
    } finally {
      await db.destroy();
    }
  });

  test("a connection the server cut is answered 503, and the next read gets a new one", async () => {
    const db = createDb(database.url);
    try {
      await nested(db, { email: "a@example.com" });
      const pool = openPool(db)!;
      // Hold the pool's one idle connection, so the next read is sure to use it, and cut it.
      const client = await pool.connect();
      const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
      client.release();
      await sql`SELECT pg_terminate_backend(${rows[0].pid})`.execute(database.db);
      const error = await nested(db, { email: "a@example.com" }).then(
        () => null,
        (e: unknown) => e,
      );
      // pg may find the connection closed before it sends; either way the read fails or succeeds
      // cleanly, and a failure is one the API answers 503.
      if (error) expect(isDatabaseUnavailable(error)).toBe(true);
      expect(await nested(db, { email: "b@example.com" })).toHaveLength(1);
    } finally {
      await db.destroy();
    }
  });
});

describe("an admin list's unfiltered pages", () => {
  test("equal the query builder's, page after page, in both orders, whatever the page size", async () => {
    await database.db.deleteFrom("enquiries").execute();
    for (let i = 0; i < 23; i++) await createEnquiry(database.db, enquiry(`lead${i}@example.com`));
    // Some share a creation time, so the id decides between them.
    await sql`UPDATE enquiries SET created_at = '2026-11-27T10:00:00Z' WHERE id % 3 = 0`.execute(database.db);
    for (const sort of ["newest", "oldest"] as const) {
      for (const limit of [1, 4, 50]) {
        let cursor: string | null = null;
        const seen: number[] = [];
        do {
          const page = await listEnquiries(database.db, { limit, cursor }, { sort });
          const built = await enquiryPageQuery(database.db, { limit, cursor }, { sort }).execute();
          expect(page.items.map((item) => item.id)).toEqual(built.slice(0, limit).map((row) => row.id));
          seen.push(...page.items.map((item) => item.id));
          cursor = page.next;
        } while (cursor);
        expect(seen.length).toBe(23);
        expect(new Set(seen).size).toBe(23);
      }
    }
  });

  test("a cursor of the other order, or none of ours, is an InvalidCursorError", async () => {
    await database.db.deleteFrom("enquiries").execute();
    for (let i = 0; i < 3; i++) await createEnquiry(database.db, enquiry(`lead${i}@example.com`));
    const { next } = await listEnquiries(database.db, { limit: 1 }, { sort: "newest" });
    expect(next).not.toBeNull();
    await expect(listEnquiries(database.db, { limit: 1, cursor: next }, { sort: "oldest" })).rejects.toBeInstanceOf(
      InvalidCursorError,
    );
    for (const cursor of ["", "x", "W10", Buffer.from('["newest","x",1]').toString("base64url"), "__proto__"])
      expect(() => cursorKey(ENQUIRY_ORDERS.newest, cursor)).toThrow(InvalidCursorError);
  });
});
