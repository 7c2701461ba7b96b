import { afterEach, describe, expect, test, vi } from "vitest";
import { closeDb, createDb, getDb } from "./client.ts";
import { DatabaseNotConfiguredError, isDatabaseUnavailable, isUniqueViolation } from "./errors.ts";

const pgError = (code: string, extra: object = {}) => Object.assign(new Error(`pg error ${code}`), { code, ...extra });

describe("getDb", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  test("throws DatabaseNotConfiguredError, saying what to set, without DATABASE_URL", () => {
    vi.stubEnv("DATABASE_URL", "");

    expect(() => getDb()).toThrow(DatabaseNotConfiguredError);
    expect(() => getDb()).toThrow(/DATABASE_URL is not set/);
  });

  test("creates one client per process and a new one after closeDb", async () => {
    vi.stubEnv("DATABASE_URL", "postgres://postgres@127.0.0.1:1/none");

    const first = getDb();
    expect(getDb()).toBe(first);
    await closeDb();
    expect(getDb()).not.toBe(first);
    await closeDb();
  });
});

describe("isDatabaseUnavailable", () => {
  test("recognises connection failures", () => {
    for (const error of [
      pgError("ECONNREFUSED"),
      pgError("ENOTFOUND"),
      pgError("ETIMEDOUT"),
      pgError("57P01"),
      pgError("57P03"),
      pgError("08006"),
      pgError("08001"),
      new Error("Connection terminated unexpectedly"),
      new Error("timeout exceeded when trying to connect"),
      new DatabaseNotConfiguredError(),
      new AggregateError([pgError("ECONNREFUSED"), pgError("ECONNREFUSED")]),
      new Error("query failed", { cause: pgError("ECONNRESET") }),
      // A socket written to after PostgreSQL was killed, and a pooled client reused after its connection failed.
      pgError("EPIPE"),
      new Error("Client has encountered a connection error and is not queryable"),
    ]) {
      expect(isDatabaseUnavailable(error), String(error)).toBe(true);
    }
  });

  test("leaves other errors alone", () => {
    for (const error of [pgError("23505"), pgError("42P01"), new Error("boom"), "ECONNREFUSED", null, undefined]) {
      expect(isDatabaseUnavailable(error), String(error)).toBe(false);
    }
  });

  // Port 1 on loopback: nothing listens there, so the connection is refused at once.
  test.each([
    ["pg", ""],
    ["Neon", "neon"],
  ])("recognises a refused connection through the %s driver", async (_, driver) => {
    vi.stubEnv("DATABASE_DRIVER", driver);
    const db = createDb("postgres://postgres@127.0.0.1:1/none");
    try {
      const error = await db
        .selectFrom("users")
        .select("id")
        .execute()
        .catch((e: unknown) => e);
      expect(isDatabaseUnavailable(error)).toBe(true);
    } finally {
      await db.destroy();
      vi.unstubAllEnvs();
    }
  });
});

describe("isUniqueViolation", () => {
  test("matches code 23505, and the constraint when one is named", () => {
    const error = pgError("23505", { constraint: "meetings_slot_unique" });

    expect(isUniqueViolation(error)).toBe(true);
    expect(isUniqueViolation(error, "meetings_slot_unique")).toBe(true);
    expect(isUniqueViolation(error, "users_username_key")).toBe(false);
    expect(isUniqueViolation(pgError("23503"))).toBe(false);
    expect(isUniqueViolation(undefined)).toBe(false);
  });
});
