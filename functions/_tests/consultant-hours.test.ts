/**
 * A consultant's own weekly hours, set by an admin: PATCH /api/admin/consultants/{id} { hours }
 * (null: the office's again) beside { active }. The hours are validated as the office's are, the
 * change is audited, and the slots a visitor is offered for that consultant follow it at once.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DUMMY_HASH } from "#db/admins.ts";
import { addConsultant } from "#db/consultants.repository.ts";
import { createUser } from "#db/users.repository.ts";
import { SESSION_COOKIE, signSession } from "../_lib/auth/auth.ts";
import adminConsultants from "../admin-consultants.ts";
import meetings from "../meetings.ts";
import { apiTestbed, call, ORIGIN, type ApiTestDatabase } from "./harness.ts";
import { PROTOTYPE_KEYS } from "./hostile.ts";

const PIETER = "pieter-van-dijk";
// Monday 23 November 2026, 10:10 in Amsterdam; the day asked for is Wednesday 2 December.
const NOW = "2026-11-23T09:10:00Z";
const DAY = "2026-12-02";
const WEDNESDAY = 3;

let t: ApiTestDatabase;
let cookie: string;
let editorCookie: string;

apiTestbed({ admin: "hours-admin", rateLimitOff: true }, (bed) => ({ t, cookie } = bed));
beforeAll(async () => {
  process.env.BOOKING_NOW = NOW;
  const pieter = await createUser(t.db, "pieter", DUMMY_HASH);
  await addConsultant(t.db, { id: PIETER, userId: pieter.id });
  const editor = await createUser(t.db, "hours-editor", DUMMY_HASH, "editor");
  editorCookie = `${SESSION_COOKIE}=${await signSession({ id: editor.id, sessionVersion: 1 })}`;
});
afterAll(() => {
  delete process.env.BOOKING_NOW;
});

const patch = (id: string, body: unknown, options: { cookie?: string; raw?: string } = {}) =>
  call(adminConsultants, `/api/admin/consultants/${encodeURIComponent(id)}`, {
    method: "PATCH",
    params: { id },
    cookie: options.cookie ?? cookie,
    headers: { origin: ORIGIN, ...(options.raw ? { "content-type": "application/json" } : {}) },
    ...(options.raw ? { raw: options.raw } : { body }),
  });
const listed = async () =>
  (await call(adminConsultants, "/api/admin/consultants", { cookie })).json as {
    id: string;
    hours: unknown;
    active: boolean;
    userId: number;
  }[];
const slots = async () =>
  (await call(meetings, `/api/meetings/available-slots?date=${DAY}&consultant=${PIETER}`)).json.data as string[];
const expect4xx = (status: number, what: string) => {
  expect(status, what).toBeGreaterThanOrEqual(400);
  expect(status, what).toBeLessThan(500);
};

describe("PATCH /api/admin/consultants/{id} { hours }", () => {
  test("own hours change the slots offered for the consultant; null gives the office's back", async () => {
    const office = await slots();
    expect(office.length).toBeGreaterThan(4);
    const own = [
      { weekday: 5, opens: "13:00", closes: "15:00" },
      { weekday: WEDNESDAY, opens: "14:00", closes: "15:30" },
      { weekday: WEDNESDAY, opens: "09:00", closes: "10:00" },
    ];
    const set = await patch(PIETER, { hours: own });
    expect(set.status, set.text).toBe(200);
    // Stored in weekday and time order.
    const sorted = [own[2], own[1], own[0]];
    expect(set.json).toEqual({ consultant: PIETER, hours: sorted });
    expect((await listed()).find((c) => c.id === PIETER)).toMatchObject({ hours: sorted, active: true });
    expect(await slots()).toEqual(["09:00", "09:30", "14:00", "14:30", "15:00"]);

    // No period on Wednesday: no slots that day; the other consultant's hours are untouched.
    expect((await patch(PIETER, { hours: [own[0]] })).status).toBe(200);
    expect(await slots()).toEqual([]);
    expect((await listed()).find((c) => c.id === "nasrin-farahani")).toMatchObject({ hours: null });

    const back = await patch(PIETER, { hours: null });
    expect(back.json).toEqual({ consultant: PIETER, hours: null });
    expect(await slots()).toEqual(office);

    // Both at once.
    expect((await patch(PIETER, { active: false, hours: own })).json).toEqual({
      consultant: PIETER,
      active: false,
      hours: sorted,
    });
    expect((await patch(PIETER, { active: true, hours: null })).status).toBe(200);
    expect(await slots()).toEqual(office);
  });

  test("the change is audited as a settings change naming the consultant and the hours", async () => {
    const hours = [{ weekday: 1, opens: "10:00", closes: "12:00" }];
    expect((await patch(PIETER, { hours })).status).toBe(200);
    const entry = await t.db
      .selectFrom("auditLog")
      .select(["action", "target", "actor", "detail"])
      .where("target", "=", PIETER)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({
      action: "settings.change",
      actor: "hours-admin",
      detail: { consultant: PIETER, hours },
    });
    expect((await patch(PIETER, { hours: null })).status).toBe(200);
  });

  test("hostile: prototype keys, oversize, opens after closes, overlaps and wrong types are 400", async () => {
    const period = { weekday: 1, opens: "09:00", closes: "10:00" };
    const bodies: unknown[] = [
      {},
      null,
      [],
      "x",
      { hours: "office" },
      { hours: {} },
      { hours: [period], extra: 1 },
      { hours: Array.from({ length: 51 }, (_, i) => ({ weekday: 1 + (i % 7), opens: "00:00", closes: "00:30" })) },
      { hours: [{ ...period, opens: "17:00", closes: "09:00" }] },
      { hours: [{ ...period, opens: "10:00", closes: "10:00" }] },
      { hours: [period, { weekday: 1, opens: "09:30", closes: "11:00" }] },
      { hours: [{ ...period, weekday: 0 }] },
      { hours: [{ ...period, weekday: 8 }] },
      { hours: [{ ...period, weekday: 1.5 }] },
      { hours: [{ ...period, weekday: "1" }] },
      { hours: [{ ...period, opens: "09:15" }] },
      { hours: [{ ...period, opens: "25:00" }] },
      { hours: [{ ...period, closes: "x".repeat(10_000) }] },
      { hours: [{ ...period, note: "extra" }] },
      { hours: [period], active: "yes" },
      ...PROTOTYPE_KEYS.map((key) => ({ [key]: { hours: null } })),
      ...PROTOTYPE_KEYS.map((key) => ({ hours: [{ ...period, [key]: 1 }] })),
    ];
    for (const body of bodies) {
      const res = await patch(PIETER, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
    // A body past the size limit is refused before it is read.
    expect((await patch(PIETER, { hours: Array.from({ length: 100_000 }, () => period) })).status).toBe(413);
    for (const raw of [
      ...PROTOTYPE_KEYS.map((key) => `{"${key}":{"hours":null},"hours":null}`),
      `{"hours":[{"weekday":1,"opens":"09:00","closes":"10:00","__proto__":{"weekday":9}}]}`,
      '{"hours":' + "[".repeat(5000) + "]".repeat(5000) + "}",
      '{"hours":null',
    ]) {
      const res = await patch(PIETER, undefined, { raw });
      expect4xx(res.status, raw.slice(0, 80));
    }
    // Nothing of it was stored.
    expect((await listed()).find((c) => c.id === PIETER)).toMatchObject({ hours: null, active: true });
  });

  test("unknown ids are 404, an editor is 403, no session 401, another origin 403", async () => {
    for (const id of ["nobody-here", "__proto__", "constructor", "a".repeat(65), "Pieter"]) {
      const res = await patch(id, { hours: null });
      expect(res.status, id).toBe(404);
    }
    expect((await patch(PIETER, { hours: null }, { cookie: editorCookie })).status).toBe(403);
    expect((await patch(PIETER, { active: false }, { cookie: editorCookie })).status).toBe(403);
    expect((await call(adminConsultants, "/api/admin/consultants", { cookie: editorCookie })).status).toBe(403);
    expect((await patch(PIETER, { hours: null }, { cookie: "" })).status).toBe(401);
    const foreign = await call(adminConsultants, `/api/admin/consultants/${PIETER}`, {
      method: "PATCH",
      params: { id: PIETER },
      cookie,
      headers: { origin: "https://evil.example" },
      body: { hours: null },
    });
    expect(foreign.status).toBe(403);
    expect((await listed()).find((c) => c.id === PIETER)).toMatchObject({ hours: null, active: true });
  });
});
