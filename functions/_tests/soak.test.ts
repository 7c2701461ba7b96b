/**
 * Soak: the real HTTP server of `npm start` (scripts/runtime/server.mjs: functions imported once, one
 * pool) under hundreds of parallel requests, on this run's database (embedded PostgreSQL, then
 * TEST_DATABASE_URL's). Nothing may be lost, duplicated or answered with an error.
 */
import { bookingAsBefore } from "#db/testing.ts";
import { readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { ensureAdmin } from "#db/admins.ts";
import { startServer } from "#scripts/runtime/server.mjs";
import { formBody, setupApiDatabase } from "./harness.ts";

const PASSWORD = "soak-test-password-long-enough";
let t: Awaited<ReturnType<typeof setupApiDatabase>>;
let server: Awaited<ReturnType<typeof startServer>>;
let cookie = "";

beforeAll(async () => {
  // One "[mail] wrote …eml" line per message: 1,000 of them say nothing here.
  vi.spyOn(console, "log").mockImplementation(() => {});
  t = await setupApiDatabase();
  await bookingAsBefore(t.db);
  // As `npm start` sizes its pool (scripts/runtime/runtime.mjs).
  process.env.DATABASE_POOL_MAX = "20";
  process.env.DATABASE_POOL_WAIT_MS = "30000";
  process.env.BOOKING_NOW = "2026-11-23T09:10:00Z"; // Monday 10:10 in Amsterdam
  // Hundreds of submissions from one address: a load test runs with the abuse limits off.
  process.env.RATE_LIMIT = "off";
  await ensureAdmin(t.db, "admin", PASSWORD);
  server = await startServer({ port: 0, log: { error: () => {} } });
  const res = await post("/api/login", { username: "admin", password: PASSWORD });
  cookie = res.headers.get("set-cookie")!.split(";")[0];
}, 60_000);

afterAll(async () => {
  await server?.close();
  await t?.destroy();
  delete process.env.DATABASE_POOL_MAX;
  delete process.env.DATABASE_POOL_WAIT_MS;
  delete process.env.BOOKING_NOW;
  delete process.env.RATE_LIMIT;
});

const post = (pathname: string, body: unknown) =>
  fetch(server.url + pathname, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify(body),
  });

/** Every record of a paged admin list, following its Link headers. */
async function adminList<T>(pathname: string): Promise<T[]> {
  const items: T[] = [];
  let next: string | null = `${pathname}?limit=200`;
  while (next) {
    const res: Response = await fetch(server.url + next, { headers: { cookie } });
    expect(res.status).toBe(200);
    items.push(...((await res.json()) as T[]));
    next = /<([^>]+)>; rel="next"/.exec(res.headers.get("link") ?? "")?.[1] ?? null;
  }
  return items;
}

async function waitFor(check: () => Promise<boolean>, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("the local server under load", () => {
  test("500 enquiries in parallel: every one 201, listed exactly once, with both its emails sent", async () => {
    const answers = await Promise.all(
      Array.from({ length: 500 }, async (_, i) => {
        const res = await post(
          "/api/contact",
          formBody({
            firstName: "Soak",
            lastName: `Visitor ${i}`,
            email: `soak${i}@example.com`,
            company: i % 2 ? "Parsian Logistics" : "",
            service: "business-launchpad",
            message: `Enquiry number ${i}: we would like to expand to the Netherlands.`,
            language: (["en", "nl", "fa"] as const)[i % 3],
          }),
        );
        return { status: res.status, body: (await res.json()) as { id: number } };
      }),
    );
    expect(answers.filter((a) => a.status !== 201)).toEqual([]);
    const ids = answers.map((a) => a.body.id);
    expect(new Set(ids).size).toBe(500);

    type Listed = { id: number; lastName: string; emailStatus: string | null };
    await waitFor(async () =>
      (await adminList<Listed>("/api/admin/submissions")).every((s) => s.emailStatus === "sent"),
    );
    const listed = await adminList<Listed>("/api/admin/submissions");
    expect(listed).toHaveLength(500);
    expect(listed.map((s) => s.id).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(listed.map((s) => s.lastName)).size).toBe(500);

    const emails = await t.db
      .selectFrom("emailOutbox")
      .select(["enquiryId", "kind", "status"])
      .where("enquiryId", "is not", null)
      .execute();
    expect(emails).toHaveLength(1000);
    expect(emails.every((e) => e.status === "sent")).toBe(true);
    for (const id of ids) {
      expect(
        emails
          .filter((e) => e.enquiryId === id)
          .map((e) => e.kind)
          .sort(),
      ).toEqual(["enquiry.company", "enquiry.visitor"]);
    }
    // Without SMTP_URL every message is a file in the outbox folder: one each, none twice.
    const files = readdirSync(path.join(process.env.DATA_DIR!, "outbox")).filter((f) => f.endsWith(".eml"));
    expect(files).toHaveLength(1000);
    // Its own limit: the sending alone may take waitFor's 60 s on a busy machine, after the 500 posts.
  }, 120_000);

  test("200 bookings racing for 20 slots: exactly 20 × 201 and 180 × 409, nothing else", async () => {
    const tuesday = ["09:00", "09:30", "10:00", "10:30", "11:00", "11:30", "12:00", "12:30"].flatMap((time) => [
      { date: "2026-11-24", time },
    ]);
    const wednesday = ["09:00", "09:30", "10:00", "10:30", "11:00", "11:30", "12:00", "12:30", "13:00", "13:30"];
    const thursday = ["09:00", "09:30"];
    const slots = [
      ...tuesday,
      ...wednesday.map((time) => ({ date: "2026-11-25", time })),
      ...thursday.map((time) => ({ date: "2026-11-26", time })),
    ];
    expect(slots).toHaveLength(20);

    const statuses = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        const slot = slots[i % 20];
        const res = await post(
          "/api/meetings/schedule",
          formBody({ name: `Racer ${i}`, email: `racer${i}@example.com`, phone: "+31 20 123 4567", ...slot }),
        );
        const body = (await res.json()) as { message?: string };
        return res.status === 409 ? `409 ${body.message}` : String(res.status);
      }),
    );
    const counts = statuses.reduce<Record<string, number>>((all, s) => ({ ...all, [s]: (all[s] ?? 0) + 1 }), {});
    expect(counts).toEqual({ "201": 20, "409 timeSlotOccupied": 180 });

    const meetings = await adminList<{ date: string; time: string }>("/api/admin/meetings");
    expect(meetings).toHaveLength(20);
    expect(new Set(meetings.map((m) => `${m.date} ${m.time}`)).size).toBe(20);
  });
});
