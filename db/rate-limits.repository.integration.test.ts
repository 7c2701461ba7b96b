import { beforeEach, describe, expect, test } from "vitest";
import {
  clearCounters,
  hitCounters,
  normaliseEmail,
  pruneCounters,
  readCounter,
  refundCounters,
} from "./rate-limits.repository.ts";
import { useTestDatabase } from "./testing.ts";

const database = useTestDatabase();
beforeEach(async () => {
  await database.db.deleteFrom("rateCounters").execute();
});

const HOUR = 3600;
/** 2026-11-23 10:00:00 UTC, the start of an hour window. */
const T0 = Date.parse("2026-11-23T10:00:00Z");
const at = (minutes: number) => T0 + minutes * 60_000;
const hit = async (key: string, nowMs: number, windowSeconds = HOUR) =>
  (await hitCounters(database.db, [{ key, windowSeconds }], nowMs)).get(key)!;

describe("hitCounters", () => {
  test("50 parallel hits on one key each see their own count: 1 to 50, none twice", async () => {
    const counts = await Promise.all(Array.from({ length: 50 }, () => hit("k", at(5)).then((s) => s.current)));
    expect(counts.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });

  test("several keys in one statement, each with its own window; `by: 0` reads without counting", async () => {
    const states = await hitCounters(
      database.db,
      [
        { key: "b", windowSeconds: HOUR },
        { key: "a", windowSeconds: 60 },
        { key: "c", windowSeconds: HOUR, by: 0 },
      ],
      at(30),
    );
    expect([...states.values()].map((s) => [s.key, s.current]).sort()).toEqual([
      ["a", 1],
      ["b", 1],
      ["c", 0],
    ]);
    expect(states.get("a")!.resetSeconds).toBe(60);
    expect(states.get("b")!.resetSeconds).toBe(30 * 60);
  });

  test("the window slides: the previous window's hits count by how much of it is still within an hour", async () => {
    for (let i = 0; i < 10; i++) await hit("s", at(50)); // 10 hits in the 10:00 window
    expect((await hit("s", at(60 + 15))).estimate).toBeCloseTo(1 + 10 * 0.75); // 10:15: 3/4 of them still count
    expect((await readCounter(database.db, "s", HOUR, at(60 + 30))).estimate).toBeCloseTo(1 + 10 * 0.5);
    expect((await readCounter(database.db, "s", HOUR, at(120 + 1))).estimate).toBeCloseTo(1 * (59 / 60));
    expect((await readCounter(database.db, "s", HOUR, at(180))).estimate).toBe(0);
  });
});

describe("refundCounters and clearCounters", () => {
  test("a refund takes one hit back from the current window, never below zero; clear forgets every window", async () => {
    await hit("r", at(1));
    await hit("r", at(2));
    await refundCounters(database.db, [{ key: "r", windowSeconds: HOUR }], at(3));
    expect((await readCounter(database.db, "r", HOUR, at(3))).current).toBe(1);
    await refundCounters(database.db, [{ key: "r", windowSeconds: HOUR }], at(3));
    await refundCounters(database.db, [{ key: "r", windowSeconds: HOUR }], at(3));
    expect((await readCounter(database.db, "r", HOUR, at(3))).current).toBe(0);
    await hit("r", at(70));
    await clearCounters(database.db, ["r"]);
    expect(await database.db.selectFrom("rateCounters").selectAll().execute()).toEqual([]);
  });
});

describe("pruneCounters", () => {
  test("deletes exactly the rows whose window and the one after it have passed", async () => {
    await hit("old", at(0)); // 10:00 window, counts until 12:00
    await hit("recent", at(70)); // 11:00 window, counts until 13:00
    expect(await pruneCounters(database.db, at(119))).toBe(0);
    expect(await pruneCounters(database.db, at(121))).toBe(1);
    expect((await database.db.selectFrom("rateCounters").select("key").execute()).map((r) => r.key)).toEqual([
      "recent",
    ]);
  });
});

describe("normaliseEmail", () => {
  test("lower case, trimmed, without a +tag", () => {
    expect(normaliseEmail("  Sara.Rahimi+Newsletter@Example.COM ")).toBe("sara.rahimi@example.com");
    expect(normaliseEmail("plain@example.com")).toBe("plain@example.com");
  });
});
