import { beforeAll, beforeEach, describe, expect, test } from "vitest";
import { pruneOlderThan, recordFailure, trailKey } from "./login-attempts.repository.ts";
import { useTestDatabase } from "./testing.ts";

const database = useTestDatabase();
beforeAll(() => {
  process.env.JWT_SECRET ??= "test-secret-that-is-long-enough-for-hs256-0123456789";
});
beforeEach(async () => {
  await database.db.deleteFrom("loginAttempts").execute();
});

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

/** Failures recorded in the past, as if they had happened then. */
async function failedAt(key: string, when: Date, times = 1) {
  await database.db
    .insertInto("loginAttempts")
    .values(Array.from({ length: times }, () => ({ key, attemptedAt: when })))
    .execute();
}

const keys = async () =>
  (await database.db.selectFrom("loginAttempts").select("key").orderBy("key").execute()).map((r) => r.key);

describe("recordFailure", () => {
  test("records one row per key, naming the username and the address only by a keyed hash", async () => {
    await recordFailure(database.db, ["user:Alice", "ip:203.0.113.7"]);
    await recordFailure(database.db, []);
    const stored = await keys();
    expect(stored).toHaveLength(2);
    expect(stored.join(" ")).not.toMatch(/alice|203\.0\.113/i);
    expect(stored).toEqual([trailKey("ip:203.0.113.7"), trailKey("user:alice")]);
    for (const key of stored) expect(key).toMatch(/^(user|ip):[\w-]{32}$/);
    // Case and surrounding spaces of a typed name do not matter; another key gives other hashes.
    expect(trailKey("user: ALICE ")).toBe(trailKey("user:alice"));
    const before = trailKey("user:alice");
    process.env.JWT_SECRET = "another-secret-that-is-long-enough-for-hs256-987";
    expect(trailKey("user:alice")).not.toBe(before);
  });
});

describe("pruneOlderThan", () => {
  test("deletes failures older than the cut-off and says how many", async () => {
    await failedAt("user:alice", minutesAgo(120), 3);
    await failedAt("user:alice", minutesAgo(5), 1);

    expect(await pruneOlderThan(database.db, minutesAgo(60))).toBe(3);
    expect(await keys()).toEqual(["user:alice"]);
  });
});
