/**
 * Newsletter confirmations are limited per mailbox, whatever its spelling, and none is mailed while
 * the breaker is tripped. The review's reproduction: ten plus-address variants of one mailbox got
 * ten confirmations, and sign-ups still mailed confirmations after the breaker had tripped.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { hitCounters, normaliseMailbox } from "#db/rate-limits.repository.ts";
import { LIMITS } from "#shared/limits.ts";
import { GUARD_CODES } from "#shared/form-guard.ts";
import { call, formBody, ORIGIN, setupApiDatabase } from "./harness.ts";
import newsletter from "../newsletter.ts";
import { issueFormToken } from "../_lib/forms/form-guard.ts";

let t: Awaited<ReturnType<typeof setupApiDatabase>>;

beforeAll(async () => {
  t = await setupApiDatabase();
  delete process.env.RATE_LIMIT;
}, 60_000);
afterAll(async () => {
  await t?.destroy();
});
beforeEach(async () => {
  await t.db.deleteFrom("rateCounters").execute();
  await t.db.deleteFrom("emailOutbox").execute();
  await t.db.deleteFrom("newsletterSubscribers").execute();
});

let ip = 0;
const signUp = (email: string, from = `198.51.100.${++ip}`) =>
  call(newsletter, "/api/newsletter", {
    body: { email, language: "en", page: "/en/" },
    headers: { origin: ORIGIN },
    ip: from,
  });

/** Confirmation emails queued, by recipient. */
const confirmations = async () =>
  (
    await sql<{
      to: string;
    }>`SELECT to_address AS to FROM email_outbox WHERE kind = 'newsletter.confirm' ORDER BY id`.execute(t.db)
  ).rows.map((r) => r.to);
const subscribers = async () =>
  Number(
    (
      await t.db
        .selectFrom("newsletterSubscribers")
        .select(sql<string>`count(*)`.as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

const LIMIT = LIMITS.newsletterConfirmationPerMailbox.limit;

describe("newsletter confirmations per mailbox", () => {
  test(`ten plus-address variants of one mailbox from one address: all answered 202 and recorded, ${LIMIT} confirmations`, async () => {
    for (let i = 0; i < 10; i++) expect((await signUp(`reader+n${i}@example.com`, "198.51.100.200")).status).toBe(202);
    expect(await subscribers()).toBe(10);
    expect(await confirmations()).toEqual(Array.from({ length: LIMIT }, (_, i) => `reader+n${i}@example.com`));
  });

  test(`ten variants in parallel still get ${LIMIT} confirmations, not more`, async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => signUp(`Reader+p${i}@Example.com`)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(202));
    expect(await confirmations()).toHaveLength(LIMIT);
  });

  test("Gmail's dots and googlemail.com are one mailbox; another provider's dots are not", async () => {
    expect(normaliseMailbox(" A.N.N+news@GoogleMail.com ")).toBe("ann@gmail.com");
    expect(normaliseMailbox("a.nn@example.com")).toBe("a.nn@example.com");
    for (const email of [
      "a.n.n@gmail.com",
      "ann@googlemail.com",
      "an.n+x@gmail.com",
      "ann@gmail.com",
      "A.nn@gmail.com",
    ])
      expect((await signUp(email)).status).toBe(202);
    expect(await confirmations()).toHaveLength(LIMIT);
    for (const email of ["a.nn@example.com", "an.n@example.com"]) expect((await signUp(email)).status).toBe(202);
    expect((await confirmations()).slice(LIMIT)).toEqual(["a.nn@example.com", "an.n@example.com"]);
  });

  test("the answer is the same whether or not a confirmation went out (it never tells whether a mailbox signed up)", async () => {
    const answers = [];
    for (let i = 0; i <= LIMIT; i++) answers.push(await signUp(`same+${i}@example.com`));
    expect(new Set(answers.map((a) => `${a.status} ${a.text}`)).size).toBe(1);
  });
});

describe("newsletter sign-ups while the breaker is tripped", () => {
  const trip = () =>
    hitCounters(t.db, [
      { key: "breaker:submissions", windowSeconds: LIMITS.breaker.windowSeconds, by: LIMITS.breaker.limit + 1 },
    ]);

  test("are refused, 429 signUpsPaused with Retry-After: nothing stored, nothing mailed", async () => {
    await trip();
    const body = formBody({ email: "paused@example.com", language: "en", page: "/en/" });
    const refused = await call(newsletter, "/api/newsletter", {
      body,
      headers: { origin: ORIGIN },
      ip: "198.51.100.201",
    });
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ success: false, code: GUARD_CODES.paused });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await subscribers()).toBe(0);
    expect(await confirmations()).toEqual([]);
    // The breaker falls back: the form, with the fresh token the island fetches for each post, goes through.
    await t.db.deleteFrom("rateCounters").execute();
    const accepted = await call(newsletter, "/api/newsletter", {
      body: { ...body, formToken: formBody({}).formToken },
      headers: { origin: ORIGIN },
      ip: "198.51.100.201",
    });
    expect(accepted.status).toBe(202);
    expect(await confirmations()).toEqual(["paused@example.com"]);
  });

  test("the sign-up that trips it is refused too", async () => {
    await hitCounters(t.db, [
      { key: "breaker:submissions", windowSeconds: LIMITS.breaker.windowSeconds, by: LIMITS.breaker.limit },
    ]);
    const res = await signUp("tripping@example.com");
    expect(res.status).toBe(429);
    expect(res.json.code).toBe(GUARD_CODES.paused);
    expect(await confirmations()).toEqual([]);
  });

  test("without JavaScript the answer is a page in the visitor's language saying sign-ups are paused", async () => {
    await trip();
    // As the confirm page posts it: the fields and a token issued a few seconds ago.
    const form = new URLSearchParams({
      email: "paused.nl@example.com",
      lang: "nl",
      page: "/nl/",
      formToken: issueFormToken(Date.now() - 5000),
    });
    const res = await call(newsletter, "/api/newsletter", {
      raw: form.toString(),
      headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
    });
    expect(res.status).toBe(429);
    expect(res.text).toContain("Aanmeldingen staan even stil");
    expect(await subscribers()).toBe(0);
  });
});
