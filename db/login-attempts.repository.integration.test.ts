import { beforeEach, describe, expect, test } from "vitest";
import { clearFailures, pruneOlderThan, recentFailures, recordFailure } from "./login-attempts.repository.ts";
import { useTestDatabase } from "./testing.ts";

const database = useTestDatabase();
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

describe("recentFailures", () => {
  test("answers the highest failure count among the keys", async () => {
    await recordFailure(database.db, ["user:alice", "ip:203.0.113.7"]);
    await recordFailure(database.db, ["user:alice", "ip:198.51.100.1"]);
    await recordFailure(database.db, ["user:alice", "ip:198.51.100.1"]);

    const since = minutesAgo(15);
    expect(await recentFailures(database.db, ["user:alice", "ip:203.0.113.7"], since)).toBe(3);
    expect(await recentFailures(database.db, ["user:bob", "ip:198.51.100.1"], since)).toBe(2);
    expect(await recentFailures(database.db, ["user:bob", "ip:192.0.2.9"], since)).toBe(0);
    expect(await recentFailures(database.db, [], since)).toBe(0);
  });

  test("counts only failures inside the window", async () => {
    await failedAt("user:alice", minutesAgo(60), 5);
    await failedAt("user:alice", minutesAgo(10), 2);
    await recordFailure(database.db, ["user:alice"]);

    expect(await recentFailures(database.db, ["user:alice"], minutesAgo(15))).toBe(3);
    expect(await recentFailures(database.db, ["user:alice"], minutesAgo(90))).toBe(8);
    expect(await recentFailures(database.db, ["user:alice"], minutesAgo(1))).toBe(1);
  });
});

describe("clearFailures", () => {
  test("forgets the failures of the given keys only", async () => {
    await recordFailure(database.db, ["user:alice", "ip:203.0.113.7"]);
    await recordFailure(database.db, ["user:bob"]);

    await clearFailures(database.db, ["user:alice", "ip:203.0.113.7"]);

    const since = minutesAgo(15);
    expect(await recentFailures(database.db, ["user:alice", "ip:203.0.113.7"], since)).toBe(0);
    expect(await recentFailures(database.db, ["user:bob"], since)).toBe(1);
  });
});

describe("pruneOlderThan", () => {
  test("deletes failures older than the cut-off and says how many", async () => {
    await failedAt("user:alice", minutesAgo(120), 3);
    await failedAt("user:alice", minutesAgo(5), 1);

    expect(await pruneOlderThan(database.db, minutesAgo(60))).toBe(3);
    expect(await recentFailures(database.db, ["user:alice"], minutesAgo(1000))).toBe(1);
  });
});
