/**
 * Limits on a visitor's manage link (src/shared/limits.ts, manageChanges): the review's one link
 * moved one meeting 60 times in 6.6 s, 60 "moved" emails to the company and 60 to the visitor.
 */
import { bookingAsBefore } from "#db/testing.ts";
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { readCounter } from "#db/rate-limits.repository.ts";
import { LIMITS } from "#shared/limits.ts";
import { GUARD_CODES } from "#shared/form-guard.ts";
import { call, ORIGIN, setupApiDatabase } from "./harness.ts";
import meetings from "../meetings.ts";
import manage from "../meeting-manage.ts";
import { signManageToken } from "../_lib/booking/manage-token.ts";

const CLOCK = "2026-11-23T09:10:02Z";
let t: Awaited<ReturnType<typeof setupApiDatabase>>;

beforeAll(async () => {
  t = await setupApiDatabase();
  await bookingAsBefore(t.db);
  delete process.env.RATE_LIMIT;
  // Monday 2026-11-23, 10:10 in Amsterdam.
  process.env.BOOKING_NOW = "2026-11-23T09:10:00Z";
  // The counters' windows follow the clock too: two seconds into one of the breaker's 10-minute
  // windows, so that the moves never straddle two (its current window alone is read below).
  vi.useFakeTimers({ toFake: ["Date"], now: new Date(CLOCK), shouldAdvanceTime: true });
}, 60_000);
afterAll(async () => {
  vi.useRealTimers();
  delete process.env.BOOKING_NOW;
  await t?.destroy();
});
beforeEach(async () => {
  await t.db.deleteFrom("rateCounters").execute();
  await t.db.deleteFrom("emailOutbox").execute();
  await t.db.deleteFrom("meetings").execute();
});

let seq = 0;
/** Books a slot from its own address; answers the meeting's id and a manage token for it. */
async function book(date: string, time: string) {
  seq++;
  const res = await call(meetings, "/api/meetings/schedule", {
    body: { name: "Leila Ahmadi", phone: "+98 912 345 6789", email: `guest${seq}@example.com`, date, time },
    ip: `192.0.2.${seq}`,
  });
  expect(res.status, res.text).toBe(201);
  const id = res.json.data.id as number;
  return { id, token: await signManageToken({ id, manageVersion: 0, date, time }) };
}

const headers = (token: string) => ({ authorization: `Bearer ${token}`, origin: ORIGIN });
const move = (token: string, date: string, time: string, ip: string) =>
  call(manage, "/api/meetings/manage/move", { body: { date, time }, headers: headers(token), ip });
const cancel = (token: string, ip: string) =>
  call(manage, "/api/meetings/manage/cancel", { method: "POST", headers: headers(token), ip });

const emailsOf = async (meetingId: number) =>
  Number(
    (
      await sql<{
        n: string;
      }>`SELECT count(*) AS n FROM email_outbox WHERE meeting_id = ${meetingId} AND kind LIKE '%moved'`.execute(t.db)
    ).rows[0].n,
  );
const breaker = async () => (await readCounter(t.db, "breaker:submissions", LIMITS.breaker.windowSeconds)).current;

describe("manage-link changes are limited", () => {
  test(`one link moving one meeting 60 times: ${LIMITS.manageChanges.perMeeting.limit} moves, the rest 429 tooManyChanges, each move counted by the breaker`, async () => {
    const { id, token: first } = await book("2026-11-25", "10:00");
    const breakerBefore = await breaker();
    let token = first;
    let at = "10:00";
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) {
      const res = await move(token, "2026-11-25", at === "10:00" ? "10:30" : "10:00", "198.51.100.9");
      statuses.push(res.status);
      if (res.status === 200) {
        token = res.json.data.token;
        at = res.json.data.time;
      } else {
        expect(res.status).toBe(429);
        expect(res.json).toMatchObject({ success: false, code: GUARD_CODES.tooManyChanges });
        expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      }
    }
    const limit = LIMITS.manageChanges.perMeeting.limit;
    expect(statuses.filter((s) => s === 200)).toHaveLength(limit);
    expect(statuses.slice(limit).every((s) => s === 429)).toBe(true);
    // One "moved" email to the company and one to the visitor per move that happened, no more.
    expect(await emailsOf(id)).toBe(2 * limit);
    expect((await breaker()) - breakerBefore).toBe(limit);
    // Refused, it is not cancelled either, and the meeting stays where the last allowed move put it.
    expect((await cancel(token, "198.51.100.9")).status).toBe(429);
    const row = await t.db
      .selectFrom("meetings")
      .select(["time", "cancelledAt"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ time: at, cancelledAt: null });
  });

  test(`one address: ${LIMITS.manageChanges.perAddress.limit} changes an hour over all its meetings, then 429; another address still can`, async () => {
    const perMeeting = LIMITS.manageChanges.perMeeting.limit;
    const perAddress = LIMITS.manageChanges.perAddress.limit;
    const booked = [];
    for (let i = 0; i < Math.ceil(perAddress / perMeeting) + 1; i++) booked.push(await book("2026-11-26", `1${i}:00`));
    let changes = 0;
    for (const meeting of booked) {
      let { token } = meeting;
      const base = Number(booked.indexOf(meeting));
      for (let i = 0; i < perMeeting && changes < perAddress; i++, changes++) {
        const res = await move(token, "2026-11-26", i % 2 === 0 ? `1${base}:30` : `1${base}:00`, "198.51.100.10");
        expect(res.status, res.text).toBe(200);
        token = res.json.data.token;
      }
      meeting.token = token;
    }
    const last = booked.at(-1)!;
    const refused = await cancel(last.token, "198.51.100.10");
    expect(refused.status).toBe(429);
    expect(refused.json.code).toBe(GUARD_CODES.tooManyChanges);
    expect((await cancel(last.token, "198.51.100.11")).status).toBe(200);
  });

  test("a refused or failed change counts nothing: a slot taken (409) leaves the meeting its changes", async () => {
    const { token } = await book("2026-11-27", "10:00");
    await book("2026-11-27", "11:00");
    for (let i = 0; i < 10; i++) expect((await move(token, "2026-11-27", "11:00", "198.51.100.12")).status).toBe(409);
    expect((await move(token, "2026-11-27", "12:00", "198.51.100.12")).status).toBe(200);
  });

  test("RATE_LIMIT=off lifts the limit (load tests and the browser suite)", async () => {
    process.env.RATE_LIMIT = "off";
    try {
      let { token } = await book("2026-11-30", "10:00");
      for (let i = 0; i < LIMITS.manageChanges.perMeeting.limit + 2; i++) {
        const res = await move(token, "2026-11-30", i % 2 === 0 ? "10:30" : "10:00", "198.51.100.13");
        expect(res.status).toBe(200);
        token = res.json.data.token;
      }
    } finally {
      delete process.env.RATE_LIMIT;
    }
  });
});
