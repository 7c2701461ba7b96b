import { beforeEach, describe, expect, test } from "vitest";
import { pruneOlderThan, recordFailure } from "./login-attempts.repository.ts";
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

const keys = async () =>
  (await database.db.selectFrom("loginAttempts").select("key").orderBy("key").execute()).map((r) => r.key);

describe("recordFailure", () => {
  test("records one row per key", async () => {
    await recordFailure(database.db, ["user:alice", "ip:203.0.113.7"]);
    await recordFailure(database.db, []);
    expect(await keys()).toEqual(["ip:203.0.113.7", "user:alice"]);
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
