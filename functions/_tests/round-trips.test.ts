/**
 * Database round trips per enquiry, counted at the driver: every statement pg sends (BEGIN and
 * COMMIT included) is one round trip to the database, which on Netlify is one network hop to Neon.
 * The answer waits only for the enquiry and its queued emails to be committed; sending them and
 * recording that they went happens after the answer (context.waitUntil).
 */
import { bookingAsBefore } from "#db/testing.ts";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import contact from "../contact.ts";
import meetings from "../meetings.ts";
import newsletter from "../newsletter.ts";
import { formBody, ORIGIN, setupApiDatabase } from "./harness.ts";

let db: Awaited<ReturnType<typeof setupApiDatabase>>;
beforeAll(async () => {
  db = await setupApiDatabase();
  await bookingAsBefore(db.db);
}, 60_000);
afterAll(async () => {
  vi.restoreAllMocks();
  delete process.env.BOOKING_NOW;
  await db?.destroy();
});

async function postEnquiry(i: number) {
  const pending: Promise<unknown>[] = [];
  const req = new Request(`${ORIGIN}/api/contact`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: ORIGIN },
    body: JSON.stringify(
      formBody({
        firstName: "Round",
        lastName: `Trip ${i}`,
        email: `round-trip-${i}@example.com`,
        service: "startup-visa",
        message: "How many times does this talk to the database?",
      }),
    ),
  });
  const context = { ip: "203.0.113.8", geo: {}, params: {}, waitUntil: (p: Promise<unknown>) => pending.push(p) };
  const res = await contact(req, context as never);
  return { res, settled: () => Promise.all(pending) };
}

describe("POST /api/contact: database round trips", () => {
  // Every round trip before the answer is a visitor's wait (about a millisecond next to the database,
  // far more across an ocean). An enquiry makes 2: the admission (the form token, all three counters
  // and the enquiry's id in one statement) and the enquiry with its emails (one INSERT … WITH, atomic
  // without a transaction). More than 2 fails here.
  test("2 before the answer (the admission; the enquiry with its emails), 2 after it", async () => {
    // An instance's first request also checks the schema once (one more statement); not counted here.
    await (await postEnquiry(0)).settled();

    const statements = vi.spyOn(pg.Client.prototype, "query");
    const { res, settled } = await postEnquiry(1);
    const beforeAnswer = statements.mock.calls.map((call) => String(call[0]).trim().split(/\s+/).slice(0, 2).join(" "));
    expect(res.status).toBe(201);
    await settled();
    const total = statements.mock.calls.length;
    statements.mockRestore();

    expect(beforeAnswer).toEqual(["WITH once", 'with "enquiry"']);
    // Claiming and marking the emails sent happen after the answer.
    expect(total - beforeAnswer.length).toBe(2);

    // The one-statement INSERT stored what the transaction did: the enquiry under the id answered,
    // its two emails (written from that id) sent, and the admin list's summary kept by its trigger.
    const { id } = (await res.json()) as { id: number };
    const enquiry = await db.db.selectFrom("enquiries").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(enquiry).toMatchObject({ lastName: "Trip 1", stage: "new", emailStatus: "sent" });
    const emails = await db.db
      .selectFrom("emailOutbox")
      .select(["kind", "subject", "status"])
      .where("enquiryId", "=", id)
      .orderBy("id")
      .execute();
    expect(emails.map((e) => [e.kind, e.status])).toEqual([
      ["enquiry.company", "sent"],
      ["enquiry.visitor", "sent"],
    ]);
    expect(emails[0].subject).toContain(`E-${String(id).padStart(5, "0")}`);
  });
});

/** The statements one request sends before its answer, each named by its first two words. */
async function statementsOf(send: () => Promise<{ res: Response; settled: () => Promise<unknown> }>) {
  await (await send()).settled(); // the instance's first request also checks the schema once
  const statements = vi.spyOn(pg.Client.prototype, "query");
  const { res, settled } = await send();
  const sent = statements.mock.calls.map((call) => String(call[0]).trim().split(/\s+/).slice(0, 2).join(" "));
  statements.mockRestore();
  await settled();
  return { status: res.status, sent };
}

async function post(handler: typeof contact, path: string, fields: object, ip = "203.0.113.9") {
  const pending: Promise<unknown>[] = [];
  const req = new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: ORIGIN },
    body: JSON.stringify(formBody(fields)),
  });
  const context = { ip, geo: {}, params: {}, waitUntil: (p: Promise<unknown>) => pending.push(p) };
  const res = await handler(req, context as never);
  return { res, settled: () => Promise.all(pending) };
}

describe("the other public forms: database round trips", () => {
  test("POST /api/meetings/schedule", async () => {
    process.env.BOOKING_NOW = "2026-11-23T09:10:00Z";
    let n = 0;
    const times = ["09:00", "09:30"];
    const result = await statementsOf(() =>
      post(meetings, "/api/meetings/schedule", {
        name: "Round Trip",
        email: `booking-${n}@example.com`,
        phone: "+31 20 123 4567",
        date: "2026-11-24",
        time: times[n++],
      }),
    );
    // The token and the address and breaker counters are one statement (the admission).
    expect(result).toEqual({
      status: 201,
      sent: [
        "SELECT (SELECT", // the slot is bookable (the office rules and the day's bookings)
        "WITH once", // the admission: token, address and breaker counters
        "begin",
        "SELECT pg_advisory_xact_lock(hashtextextended($1,", // the email address's pending meetings,
        "SELECT count(*)", // counted under its lock (functions/_lib/forms/limits.ts)
        "insert into", // the meeting
        "insert into", // its emails
        "commit",
      ],
    });
  });
  test("POST /api/meetings/schedule with a daily cap: the day's lock and its bookings add two", async () => {
    process.env.BOOKING_NOW = "2026-11-23T09:10:00Z";
    await db.db.updateTable("officeSettings").set({ dailyLimit: 10 }).execute();
    let n = 0;
    const times = ["11:00", "11:30"];
    const result = await statementsOf(() =>
      post(
        meetings,
        "/api/meetings/schedule",
        {
          name: "Round Trip",
          email: `capped-${n}@example.com`,
          phone: "+31 20 123 4567",
          date: "2026-11-24",
          time: times[n++],
        },
        // Another address: the first test's bookings count against theirs.
        "203.0.113.10",
      ),
    );
    await db.db.updateTable("officeSettings").set({ dailyLimit: null }).execute();
    expect(result).toEqual({
      status: 201,
      sent: [
        "SELECT (SELECT",
        "WITH once",
        "begin",
        "SELECT pg_advisory_xact_lock(hashtextextended($1,",
        "SELECT count(*)",
        "SELECT pg_advisory_xact_lock(hashtext($1),", // the day's lock (db/booking-rules.repository.ts)
        'select "time"', // the day's bookings, read under it: the cap and the buffers hold
        "insert into",
        "insert into",
        "commit",
      ],
    });
  });
  test("POST /api/newsletter", async () => {
    let n = 0;
    const result = await statementsOf(() =>
      post(newsletter, "/api/newsletter", { email: `letter-${n++}@example.com`, language: "en" }),
    );
    // The token and the address and breaker counters are one statement (the admission).
    expect(result).toEqual({
      status: 202,
      sent: [
        "WITH once", // the admission: token, address and breaker counters
        "begin",
        "insert into", // the sign-up (db/newsletter.repository.ts signUp)
        "select *",
        'update "newsletter_subscribers"',
        "insert into", // its confirmation email
        "commit",
      ],
    });
  });
});
