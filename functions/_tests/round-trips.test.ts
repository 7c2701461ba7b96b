/**
 * Database round trips per enquiry, counted at the driver: every statement pg sends (BEGIN and
 * COMMIT included) is one round trip to the database, which on Netlify is one network hop to Neon.
 * The answer waits only for the enquiry and its queued emails to be committed; sending them and
 * recording that they went happens after the answer (context.waitUntil).
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import contact from "../contact.ts";
import { formBody, ORIGIN, setupApiDatabase } from "./harness.ts";

let db: Awaited<ReturnType<typeof setupApiDatabase>>;
beforeAll(async () => {
  db = await setupApiDatabase();
}, 60_000);
afterAll(async () => {
  vi.restoreAllMocks();
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
  test("7 before the answer (token, 2 limit counters, BEGIN, the enquiry, its 2 emails in one INSERT, COMMIT), 2 after it", async () => {
    // An instance's first request also checks the schema once (one more statement); not counted here.
    await (await postEnquiry(0)).settled();

    const statements = vi.spyOn(pg.Client.prototype, "query");
    const { res, settled } = await postEnquiry(1);
    const beforeAnswer = statements.mock.calls.map((call) => String(call[0]).trim().split(/\s+/).slice(0, 2).join(" "));
    expect(res.status).toBe(201);
    await settled();
    const total = statements.mock.calls.length;
    statements.mockRestore();

    // The form token and the abuse limits' two counters (functions/_lib/limits.ts), then the
    // transaction; claiming and marking the emails sent happen after the answer.
    expect(beforeAnswer).toEqual([
      "insert into",
      "WITH input",
      "WITH input",
      "begin",
      "insert into",
      "insert into",
      "commit",
    ]);
    expect(total - beforeAnswer.length).toBe(2);
  });
});
