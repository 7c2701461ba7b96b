import { sql } from "kysely";
import { beforeAll, beforeEach, describe, expect, test } from "vitest";
import {
  cancelMeeting,
  createMeeting,
  getMeeting,
  listMeetings,
  publicMeeting,
  setConfirmed,
  SlotTakenError,
} from "./meetings.repository.ts";
import { lockDayBookings } from "./booking-rules.repository.ts";
import { addConsultant } from "./consultants.repository.ts";
import { bookingAsBefore, useTestDatabase } from "./testing.ts";
import { addNote } from "./notes.repository.ts";
import { createUser } from "./users.repository.ts";

const database = useTestDatabase();
let consultant = "";
beforeAll(async () => {
  consultant = await bookingAsBefore(database.db);
});
beforeEach(async () => {
  await database.db.deleteFrom("meetings").execute();
});

const request = { name: "Ada Lovelace", email: "ada@example.com", phone: "+31 20 123 4567" };
const slot = (date: string, time: string) => ({
  ...request,
  date,
  time,
  consultantId: consultant,
  assignment: { rule: "chosen" } as const,
});
/** A consultant's standing meetings' times on `date`, as a booking reads them under their day's lock. */
const takenTimes = (date: string, of = consultant) =>
  database.db.transaction().execute((trx) => lockDayBookings(trx, date, of));

describe("createMeeting", () => {
  test("books a slot and returns the reservation with what the server keeps of it", async () => {
    const meeting = await createMeeting(database.db, slot("2026-12-01", "09:00"));

    expect(meeting).toEqual({
      id: expect.any(Number),
      ...request,
      date: "2026-12-01",
      time: "09:00",
      language: "en",
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      isConfirmed: false,
      cancelledAt: null,
      cancelledBy: null,
      inviteSequence: 0,
      manageVersion: 0,
      location: null,
      consultant,
    });
  });

  test("throws SlotTakenError on the second booking of a slot", async () => {
    await createMeeting(database.db, slot("2026-12-01", "09:00"));

    const second = createMeeting(database.db, { ...slot("2026-12-01", "09:00"), name: "Someone Else" });

    await expect(second).rejects.toBeInstanceOf(SlotTakenError);
    await expect(second).rejects.toMatchObject({ date: "2026-12-01", time: "09:00" });
    expect((await listMeetings(database.db)).items).toHaveLength(1);
  });

  test("books one time with two consultants: the slot is one booking per consultant", async () => {
    const user = await createUser(database.db, "pieter", "!");
    await addConsultant(database.db, { id: "pieter-van-dijk", userId: user.id });
    await createMeeting(database.db, slot("2026-12-01", "09:00"));
    const other = await createMeeting(database.db, { ...slot("2026-12-01", "09:00"), consultantId: "pieter-van-dijk" });

    expect(other.consultant).toBe("pieter-van-dijk");
    await expect(
      createMeeting(database.db, { ...slot("2026-12-01", "09:00"), consultantId: "pieter-van-dijk" }),
    ).rejects.toMatchObject({ consultantId: "pieter-van-dijk", date: "2026-12-01", time: "09:00" });
    expect(await takenTimes("2026-12-01", "pieter-van-dijk")).toEqual(["09:00"]);
    expect(await takenTimes("2026-12-01")).toEqual(["09:00"]);
  });

  test("books the same time on another date and another time on the same date", async () => {
    await createMeeting(database.db, slot("2026-12-01", "09:00"));
    await createMeeting(database.db, slot("2026-12-02", "09:00"));
    await createMeeting(database.db, slot("2026-12-01", "09:30"));

    expect((await listMeetings(database.db)).items).toHaveLength(3);
  });

  test("lets exactly one of 50 concurrent requests for one slot through", async () => {
    const attempts = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        createMeeting(database.db, { ...slot("2026-12-03", "10:00"), name: `Guest ${i}` }),
      ),
    );

    const booked = attempts.filter((a) => a.status === "fulfilled");
    const refused = attempts.filter((a) => a.status === "rejected");
    expect(booked).toHaveLength(1);
    expect(refused).toHaveLength(49);
    for (const r of refused) expect(r.reason).toBeInstanceOf(SlotTakenError);
    expect(await takenTimes("2026-12-03")).toEqual(["10:00"]);
  });

  test("keeps a Persian name intact", async () => {
    await createMeeting(database.db, { ...slot("2026-12-01", "11:00"), name: "علی رضایی‌فر" });

    expect((await listMeetings(database.db)).items[0].name).toBe("علی رضایی‌فر");
  });
});

describe("lockDayBookings", () => {
  test("lists the consultant's booked times of one date in ascending order", async () => {
    for (const time of ["14:30", "09:00", "11:00"]) await createMeeting(database.db, slot("2026-12-01", time));
    await createMeeting(database.db, slot("2026-12-02", "10:00"));

    expect(await takenTimes("2026-12-01")).toEqual(["09:00", "11:00", "14:30"]);
    expect(await takenTimes("2026-12-05")).toEqual([]);
  });
});

describe("listMeetings", () => {
  test("lists reservations newest request first", async () => {
    const first = await createMeeting(database.db, slot("2026-12-01", "09:00"));
    const second = await createMeeting(database.db, slot("2026-12-01", "09:30"));
    const third = await createMeeting(database.db, slot("2026-12-01", "10:00"));
    // Backdate the latest insert: order follows createdAt, not insertion or id.
    await sql`UPDATE meetings SET created_at = '2020-01-01T00:00:00Z' WHERE id = ${third.id}`.execute(database.db);

    const listed = (await listMeetings(database.db)).items;

    expect(listed.map((m) => m.id)).toEqual([second.id, first.id, third.id]);
    expect(listed[2].createdAt).toBe("2020-01-01T00:00:00.000Z");
  });

  test("shows every field as the API shapes it, a cancelled one with its note", async () => {
    const text = 'A "quote", a \\ backslash, a new\nline, «سلام» with a \u200c joiner, 🚀';
    const created = await createMeeting(database.db, { ...slot("2026-12-01", "09:00"), name: text, language: "fa" });
    await cancelMeeting(database.db, created.id, "visitor");
    const author = await database.db
      .insertInto("users")
      .values({ username: "admin", password: "x", role: "admin" })
      .returning(["id", "username"])
      .executeTakeFirstOrThrow();
    await addNote(database.db, { kind: "meeting", id: created.id }, text, author);
    const noted = await getMeeting(database.db, created.id);
    const { rows } = await sql<{ cancelled: Date; noted: Date }>`
      SELECT cancelled_at AS cancelled, (SELECT updated_at FROM lead_notes WHERE meeting_id = m.id) AS noted
      FROM meetings m WHERE id = ${created.id}`.execute(database.db);

    const expected = {
      ...publicMeeting(created),
      cancelledAt: rows[0].cancelled.toISOString(),
      cancelledBy: "visitor",
      emailStatus: null,
      note: { id: expect.any(String), text, by: "admin", at: rows[0].noted.toISOString() },
      location: null,
      outcome: null,
      source: null,
      assignment: { rule: "chosen" },
    };
    expect((await listMeetings(database.db)).items).toEqual([expected]);
    expect(noted).toEqual(expected);
    expect(await getMeeting(database.db, created.id)).toEqual(expected);
  });
});

describe("setConfirmed", () => {
  test("confirms a reservation, then marks it pending again, bumping the invite sequence each time", async () => {
    const { id } = await createMeeting(database.db, slot("2026-12-01", "09:00"));

    expect(await setConfirmed(database.db, id, true)).toEqual({
      meeting: expect.objectContaining({ id, isConfirmed: true, inviteSequence: 1 }),
      changed: true,
    });
    expect((await listMeetings(database.db)).items[0].isConfirmed).toBe(true);
    expect(await setConfirmed(database.db, id, false)).toEqual({
      meeting: expect.objectContaining({ id, isConfirmed: false, inviteSequence: 2 }),
      changed: true,
    });
  });

  test("setting the state a reservation already has changes nothing", async () => {
    const { id } = await createMeeting(database.db, slot("2026-12-01", "09:00"));

    expect(await setConfirmed(database.db, id, false)).toEqual({
      meeting: expect.objectContaining({ id, isConfirmed: false, inviteSequence: 0 }),
      changed: false,
    });
  });

  test("answers undefined for an unknown id", async () => {
    expect(await setConfirmed(database.db, 987_654, true)).toBeUndefined();
    expect(await setConfirmed(database.db, 2 ** 40, true)).toBeUndefined();
  });
});
