import { sql } from "kysely";
import { beforeEach, describe, expect, test } from "vitest";
import { createEnquiry, listEnquiries } from "./enquiries.repository.ts";
import {
  claimDue,
  enqueue,
  markFailed,
  markSent,
  MAX_ATTEMPTS,
  retryDelayMinutes,
  type OutboxMessage,
} from "./outbox.repository.ts";
import { useTestDatabase } from "./testing.ts";

const database = useTestDatabase();
beforeEach(async () => {
  await database.db.deleteFrom("emailOutbox").execute();
  await database.db.deleteFrom("enquiries").execute();
});

const message = (i: number, extra: Partial<OutboxMessage> = {}): OutboxMessage => ({
  kind: "test",
  to: `reader${i}@example.com`,
  subject: `Subject ${i}`,
  text: `Text ${i}`,
  html: `<p>Html ${i}</p>`,
  ...extra,
});
const rows = () => database.db.selectFrom("emailOutbox").selectAll().orderBy("id").execute();
/** Seconds from the database's now() to a timestamp. */
const secondsFromNow = async (id: string, column: "nextAttemptAt" | "lockedUntil") => {
  const {
    rows: [r],
  } = await sql<{ s: number }>`
    SELECT extract(epoch FROM ${sql.ref(column === "nextAttemptAt" ? "next_attempt_at" : "locked_until")} - now())::float AS s
    FROM email_outbox WHERE id = ${id}`.execute(database.db.withoutPlugins());
  return r.s;
};

describe("enqueue", () => {
  test("writes pending rows, due now, and returns their ids", async () => {
    const ids = await enqueue(database.db, [
      message(1),
      message(2, { replyTo: "someone@example.com", ics: "BEGIN:VCALENDAR" }),
    ]);
    expect(ids).toHaveLength(2);
    const stored = await rows();
    expect(stored.map((r) => r.id)).toEqual(ids);
    expect(stored[1]).toMatchObject({
      status: "pending",
      attempts: 0,
      toAddress: "reader2@example.com",
      replyTo: "someone@example.com",
      ics: "BEGIN:VCALENDAR",
      lastError: null,
      sentAt: null,
    });
  });

  test("rolls back with the record it belongs to", async () => {
    await expect(
      database.db.transaction().execute(async (trx) => {
        const enquiry = await createEnquiry(trx, {
          firstName: "Ada",
          lastName: "Lovelace",
          email: "ada@example.com",
          service: "other",
          message: "A message that will vanish.",
        });
        await enqueue(trx, [message(1, { enquiryId: enquiry.id })]);
        throw new Error("rollback");
      }),
    ).rejects.toThrow("rollback");
    expect(await rows()).toEqual([]);
    expect((await listEnquiries(database.db)).items).toEqual([]);
  });
});

describe("claimDue", () => {
  test("claims due rows oldest first: marked sending, locked 2 minutes, attempt counted", async () => {
    const ids = await enqueue(database.db, [message(1), message(2), message(3)]);
    const claimed = await claimDue(database.db, 2);
    expect(claimed.map((r) => [r.id, r.status, r.attempts])).toEqual([
      [ids[0], "sending", 1],
      [ids[1], "sending", 1],
    ]);
    expect(await secondsFromNow(ids[0], "lockedUntil")).toBeCloseTo(120, -1);
    expect((await claimDue(database.db, 10)).map((r) => r.id)).toEqual([ids[2]]);
    expect(await claimDue(database.db, 10)).toEqual([]);
  });

  test("leaves rows that are not due yet, sent or dead", async () => {
    const [later, sent, dead] = await enqueue(database.db, [message(1), message(2), message(3)]);
    await database.db
      .updateTable("emailOutbox")
      .set({ nextAttemptAt: sql<Date>`now() + interval '1 minute'` })
      .where("id", "=", later)
      .execute();
    await database.db.updateTable("emailOutbox").set({ status: "sent" }).where("id", "=", sent).execute();
    await database.db.updateTable("emailOutbox").set({ status: "dead" }).where("id", "=", dead).execute();
    expect(await claimDue(database.db, 10)).toEqual([]);
  });

  test("with ids, claims only those", async () => {
    const ids = await enqueue(database.db, [message(1), message(2), message(3)]);
    expect((await claimDue(database.db, 10, [ids[2]])).map((r) => r.id)).toEqual([ids[2]]);
    expect(await claimDue(database.db, 10, [])).toEqual([]);
  });

  test("takes back a row whose sender died: once its lock has run out", async () => {
    const [id] = await enqueue(database.db, [message(1)]);
    await claimDue(database.db, 1);
    expect(await claimDue(database.db, 1)).toEqual([]);
    await database.db
      .updateTable("emailOutbox")
      .set({ lockedUntil: sql<Date>`now() - interval '1 second'` })
      .where("id", "=", id)
      .execute();
    const [again] = await claimDue(database.db, 1);
    expect(again).toMatchObject({ id, status: "sending", attempts: 2 });
  });

  test("concurrent claims never hand one row to two senders", async () => {
    await enqueue(
      database.db,
      Array.from({ length: 40 }, (_, i) => message(i)),
    );
    const claims = await Promise.all(Array.from({ length: 12 }, () => claimDue(database.db, 4)));
    const ids = claims.flat().map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(40);
    expect((await rows()).every((r) => r.status === "sending" && r.attempts === 1)).toBe(true);
  });
});

describe("markSent and markFailed", () => {
  test("a sent row is done: status sent, sent_at set, lock and error cleared", async () => {
    const [id] = await enqueue(database.db, [message(1)]);
    const [row] = await claimDue(database.db, 1);
    await markFailed(database.db, row, "first try failed");
    await database.db
      .updateTable("emailOutbox")
      .set({ nextAttemptAt: sql<Date>`now()` })
      .execute();
    await claimDue(database.db, 1);
    await markSent(database.db, [id]);
    expect((await rows())[0]).toMatchObject({
      status: "sent",
      attempts: 2,
      lastError: null,
      lockedUntil: null,
      sentAt: expect.any(Date),
    });
  });

  test("only the holder of a claim records the outcome", async () => {
    const [id] = await enqueue(database.db, [message(1)]);
    await markSent(database.db, [id]);
    expect((await rows())[0].status).toBe("pending");
  });

  test("failures wait 1, 2, 5, 10, 30, 60 minutes, then hourly", async () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map(retryDelayMinutes)).toEqual([1, 2, 5, 10, 30, 60, 60, 60]);
    const [id] = await enqueue(database.db, [message(1)]);
    for (const minutes of [1, 2, 5]) {
      const [row] = await claimDue(database.db, 1);
      await markFailed(database.db, row, `failed on attempt ${row.attempts}`);
      expect(await secondsFromNow(id, "nextAttemptAt")).toBeCloseTo(minutes * 60, -1);
      await database.db
        .updateTable("emailOutbox")
        .set({ nextAttemptAt: sql<Date>`now()` })
        .execute();
    }
    expect((await rows())[0]).toMatchObject({
      status: "failed",
      attempts: 3,
      lastError: "failed on attempt 3",
      lockedUntil: null,
    });
  });

  test(`after ${MAX_ATTEMPTS} attempts a message is given up (dead) and never claimed again`, async () => {
    const [id] = await enqueue(database.db, [message(1)]);
    await database.db
      .updateTable("emailOutbox")
      .set({ attempts: MAX_ATTEMPTS - 1 })
      .execute();
    const [row] = await claimDue(database.db, 1);
    await markFailed(database.db, row, "still refused");
    expect((await rows())[0]).toMatchObject({ id, status: "dead", attempts: MAX_ATTEMPTS });
    await database.db
      .updateTable("emailOutbox")
      .set({ nextAttemptAt: sql<Date>`now() - interval '1 day'` })
      .execute();
    expect(await claimDue(database.db, 1)).toEqual([]);
  });
});

describe("the email status of a record", () => {
  test("none, pending, failing and sent", async () => {
    const enquiry = await createEnquiry(database.db, {
      firstName: "Ada",
      lastName: "Lovelace",
      email: "ada@example.com",
      service: "other",
      message: "Please call me back.",
    });
    const status = async () => (await listEnquiries(database.db)).items[0].emailStatus;
    expect(await status()).toBeNull();

    const [company, visitor] = await enqueue(database.db, [
      message(1, { enquiryId: enquiry.id }),
      message(2, { enquiryId: enquiry.id }),
    ]);
    expect(await status()).toBe("pending");

    const claimed = await claimDue(database.db, 2);
    await markSent(database.db, [company]);
    await markFailed(
      database.db,
      claimed.find((r) => r.id === visitor)!,
      "refused",
    );
    expect(await status()).toBe("failing");

    await database.db
      .updateTable("emailOutbox")
      .set({ nextAttemptAt: sql<Date>`now()` })
      .execute();
    await claimDue(database.db, 1);
    expect(await status()).toBe("pending");
    await markSent(database.db, [visitor]);
    expect(await status()).toBe("sent");
  });

  test("a record's rows go when the record goes", async () => {
    const enquiry = await createEnquiry(database.db, {
      firstName: "Ada",
      lastName: "Lovelace",
      email: "ada@example.com",
      service: "other",
      message: "Please call me back.",
    });
    await enqueue(database.db, [message(1, { enquiryId: enquiry.id })]);
    await database.db.deleteFrom("enquiries").where("id", "=", enquiry.id).execute();
    expect(await rows()).toEqual([]);
  });
});
