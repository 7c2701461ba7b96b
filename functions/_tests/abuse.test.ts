/**
 * Attacks against the public forms, through the real handlers and PostgreSQL: the
 * limits (per address, per recipient, the breaker), the bot traps (honeypot, the signed "form shown
 * at" token, cross-site posts) with and without JavaScript, and where the client address comes from.
 * The clock is fixed just after the start of an hour, so no test straddles a window of the limits.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { call, formBody, apiTestbed, type ApiTestDatabase } from "./harness.ts";
import contact from "../contact.ts";
import meetings from "../meetings.ts";
import newsletter from "../newsletter.ts";
import formToken from "../form-token.ts";
import alerts from "../admin-alerts.ts";
import { clientIp } from "../_lib/http/http.ts";
import { addressKey } from "../_lib/forms/limits.ts";
import { issueFormToken } from "../_lib/forms/form-guard.ts";
import { LIMITS } from "#shared/limits.ts";
import { GUARD_CODES } from "#shared/form-guard.ts";

let t: ApiTestDatabase;
let cookie: string;

// One "[mail] wrote …eml" line per message: hundreds of them say nothing here.
beforeAll(() => {
  vi.spyOn(console, "log").mockImplementation(() => {});
});
apiTestbed({ bookingAsBefore: true, admin: "abuse-admin" }, (bed) => ({ t, cookie } = bed));
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
  vi.setSystemTime(new Date("2026-11-23T10:00:02Z"));
  process.env.BOOKING_NOW = "2026-11-23T09:10:00Z"; // Monday 10:10 in Amsterdam
});
afterEach(async () => {
  vi.useRealTimers();
  delete process.env.RATE_LIMIT;
  delete process.env.BOOKING_NOW;
  await t.db.deleteFrom("rateCounters").execute();
});

const enquiry = {
  firstName: "Sara",
  lastName: "Rahimi",
  service: "startup-visa",
  message: "We want to open an office in Amsterdam.",
};
const send = (email: string, ip: string, extra: Record<string, unknown> = {}) =>
  call(contact, "/api/contact", { body: { ...enquiry, email, ...extra }, ip });
const formPost = (fields: Record<string, string>, headers: Record<string, string> = {}, ip?: string) =>
  call(contact, "/api/contact", {
    raw: new URLSearchParams(fields).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    ip,
  });
const emailsTo = async (address: string) =>
  t.db.selectFrom("emailOutbox").select(["kind", "toAddress"]).where("toAddress", "=", address).execute();
const storedFrom = async (email: string) =>
  (await t.db.selectFrom("enquiries").select("id").where("email", "=", email).execute()).length;

describe("limits on enquiries", () => {
  test("50 enquiries from one address to one recipient: each accepted one stored and told to the company, one acknowledgement, 429 past the flood", async () => {
    const answers = [];
    for (let i = 0; i < 50; i++) answers.push(await send("loop@example.com", "198.51.100.10"));
    const { flood } = LIMITS.enquiryPerAddress;
    expect(answers.slice(0, flood).map((a) => a.status)).toEqual(Array(flood).fill(201));
    for (const refused of answers.slice(flood)) {
      expect(refused.status).toBe(429);
      expect(refused.json).toMatchObject({ success: false, code: GUARD_CODES.tooMany });
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(3600);
    }
    // Every accepted lead is stored, and the company hears of each; the visitor is acknowledged once.
    expect(await storedFrom("loop@example.com")).toBe(flood);
    const outbox = await t.db
      .selectFrom("emailOutbox")
      .innerJoin("enquiries", "enquiries.id", "emailOutbox.enquiryId")
      .select("kind")
      .where("enquiries.email", "=", "loop@example.com")
      .execute();
    expect(outbox.filter((e) => e.kind === "enquiry.company")).toHaveLength(flood);
    expect(outbox.filter((e) => e.kind === "enquiry.visitor")).toHaveLength(1);
  });

  test("past the soft limit of an address, the enquiry is stored and the company told, without an acknowledgement", async () => {
    const { soft } = LIMITS.enquiryPerAddress;
    for (let i = 0; i <= soft; i++) {
      expect((await send(`soft${i}@example.com`, "198.51.100.11")).status).toBe(201);
    }
    expect(await emailsTo(`soft${soft - 1}@example.com`)).toEqual([
      { kind: "enquiry.visitor", toAddress: `soft${soft - 1}@example.com` },
    ]);
    expect(await emailsTo(`soft${soft}@example.com`)).toEqual([]);
    expect(await storedFrom(`soft${soft}@example.com`)).toBe(1);
  });

  test("one acknowledgement per recipient per 24 hours, whatever the case, +tag or spaces of the address", async () => {
    const spellings = ["victim@example.com", "Victim+news@Example.com", " VICTIM+x@example.COM "];
    for (const [i, email] of spellings.entries()) {
      expect((await send(email, `192.0.2.${20 + i}`)).status).toBe(201);
    }
    const acks = await t.db
      .selectFrom("emailOutbox")
      .select("toAddress")
      .where("kind", "=", "enquiry.visitor")
      .where("toAddress", "ilike", "%victim%")
      .execute();
    expect(acks).toEqual([{ toAddress: "victim@example.com" }]);
    expect(await t.db.selectFrom("enquiries").where("email", "ilike", "%victim%").select("id").execute()).toHaveLength(
      3,
    );
  });

  test("an IPv6 network counts as one address by its /64", async () => {
    expect(addressKey("2001:db8:85a3:1:aaaa::1")).toBe("2001:db8:85a3:1::/64");
    expect(addressKey("2001:0db8:85a3:0001:ffff:0:0:2")).toBe("2001:db8:85a3:1::/64");
    expect(addressKey("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(addressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    const { flood } = LIMITS.enquiryPerAddress;
    for (let i = 0; i < flood; i++) {
      expect((await send(`v6-${i}@example.com`, `2001:db8:aa:bb::${(i + 1).toString(16)}`)).status).toBe(201);
    }
    expect((await send("v6-last@example.com", "2001:db8:aa:bb:ffff::1")).status).toBe(429);
    expect((await send("v6-other@example.com", "2001:db8:aa:bc::1")).status).toBe(201);
  });

  test("the flood answer without JavaScript is a page in the visitor's language, 429 with Retry-After", async () => {
    const { flood } = LIMITS.enquiryPerAddress;
    for (let i = 0; i < flood; i++) await send(`nojs${i}@example.com`, "198.51.100.12");
    const res = await formPost(
      formBody({ ...enquiry, email: "nojs-last@example.com", lang: "fa" }),
      {},
      "198.51.100.12",
    );
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.text).toContain('<html lang="fa" dir="rtl">');
    expect(res.text).toContain("درخواست‌های بیش از حد");
    expect(await storedFrom("nojs-last@example.com")).toBe(0);
  });

  test("the circuit breaker: past its limit acknowledgements pause, leads are still stored, and the dashboard is told", async () => {
    const before = await call(alerts, "/api/admin/alerts", { cookie });
    expect(before.json.data.breaker).toMatchObject({ tripped: false, submissions: 0, limit: LIMITS.breaker.limit });
    const total = LIMITS.breaker.limit + 5;
    for (let i = 0; i < total; i++) {
      // Each from its own address and to its own recipient: no other limit applies.
      expect((await send(`wave${i}@example.com`, `198.18.${i}.1`)).status).toBe(201);
    }
    const acks = await t.db
      .selectFrom("emailOutbox")
      .select("toAddress")
      .where("kind", "=", "enquiry.visitor")
      .where("toAddress", "like", "wave%")
      .execute();
    expect(acks).toHaveLength(LIMITS.breaker.limit);
    expect(acks.map((a) => a.toAddress)).not.toContain(`wave${total - 1}@example.com`);
    expect(await t.db.selectFrom("enquiries").where("email", "like", "wave%").select("id").execute()).toHaveLength(
      total,
    );
    const after = await call(alerts, "/api/admin/alerts", { cookie });
    expect(after.status).toBe(200);
    expect(after.json.data.breaker).toEqual({
      tripped: true,
      submissions: total,
      limit: LIMITS.breaker.limit,
      windowMinutes: LIMITS.breaker.windowSeconds / 60,
    });
    expect((await call(alerts, "/api/admin/alerts")).status).toBe(401);
  }, 60_000);

  test("RATE_LIMIT=off switches the limits off: every enquiry acknowledged", async () => {
    process.env.RATE_LIMIT = "off";
    const count = LIMITS.enquiryPerAddress.flood + 5;
    for (let i = 0; i < count; i++) expect((await send("bench@example.com", "198.51.100.13")).status).toBe(201);
    expect((await emailsTo("bench@example.com")).filter((e) => e.kind === "enquiry.visitor")).toHaveLength(count);
  });
});

describe("limits on bookings and sign-ups", () => {
  const book = (email: string, time: string, ip: string, date = "2026-11-24") =>
    call(meetings, "/api/meetings/schedule", {
      body: { name: "Leila Ahmadi", email, phone: "+98 912 345 6789", date, time },
      ip,
    });

  test(`${LIMITS.bookingPerAddress.limit} bookings a day from one address, then 429`, async () => {
    const times = ["09:00", "09:30", "10:00", "10:30"];
    const answers = [];
    for (const [i, time] of times.entries()) answers.push(await book(`booker${i}@example.com`, time, "198.51.100.30"));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 429]);
    expect(answers[3].json.code).toBe(GUARD_CODES.tooMany);
    expect(answers[3].headers.get("retry-after")).toBeTruthy();
    // The refused booking holds no slot.
    const slots = await call(meetings, "/api/meetings/available-slots?date=2026-11-24");
    expect(slots.json.data).toContain("10:30");
  });

  test(`at most ${LIMITS.pendingMeetingsPerEmail} pending meetings per email address, however it is spelled`, async () => {
    expect((await book("pending@example.com", "11:00", "192.0.2.40")).status).toBe(201);
    expect((await book("Pending+2@example.com", "11:30", "192.0.2.41")).status).toBe(201);
    const third = await book("pending+3@EXAMPLE.com", "12:00", "192.0.2.42");
    expect(third.status).toBe(429);
    expect(third.json.code).toBe(GUARD_CODES.tooManyPending);
    // Once one is confirmed, another may be booked; and once one is cancelled, another again.
    await t.db.updateTable("meetings").set({ isConfirmed: true }).where("time", "=", "11:00").execute();
    expect((await book("pending@example.com", "12:00", "192.0.2.43")).status).toBe(201);
    expect((await book("pending@example.com", "12:30", "192.0.2.44")).status).toBe(429);
    await t.db
      .updateTable("meetings")
      .set({ cancelledAt: new Date(), cancelledBy: "visitor" })
      .where("time", "=", "12:00")
      .execute();
    expect((await book("pending@example.com", "12:30", "192.0.2.45")).status).toBe(201);
  });

  test("two parallel bookings for one address cannot both take its last pending place", async () => {
    expect((await book("race@example.com", "13:00", "192.0.2.50", "2026-11-25")).status).toBe(201);
    const [a, b] = await Promise.all([
      book("race@example.com", "13:30", "192.0.2.51", "2026-11-25"),
      book("race@example.com", "14:00", "192.0.2.52", "2026-11-25"),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 429]);
  });

  test(`${LIMITS.newsletterPerAddress.limit} sign-ups an hour from one address, then 429`, async () => {
    const statuses = [];
    for (let i = 0; i <= LIMITS.newsletterPerAddress.limit; i++) {
      statuses.push(
        (await call(newsletter, "/api/newsletter", { body: { email: `reader${i}@example.com` }, ip: "198.51.100.60" }))
          .status,
      );
    }
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, -1).every((s) => s === 202)).toBe(true);
  });
});

describe("bot traps", () => {
  test("GET /api/form-token gives a token that is accepted after a moment, once", async () => {
    const issued = await call(formToken, "/api/form-token");
    expect(issued.status).toBe(200);
    expect(issued.headers.get("cache-control")).toBe("no-store");
    expect(issued.json).toMatchObject({ success: true, validInMs: 2000, expiresInMs: 2 * 60 * 60 * 1000 });
    const body = { ...enquiry, email: "token@example.com", formToken: issued.json.token, website: "" };
    const tooFast = await call(contact, "/api/contact", { body });
    expect(tooFast.status).toBe(400);
    expect(tooFast.json).toMatchObject({ code: GUARD_CODES.token, message: expect.stringMatching(/too quickly/) });
    vi.setSystemTime(Date.now() + 3000);
    expect((await call(contact, "/api/contact", { body })).status).toBe(201);
    const replay = await call(contact, "/api/contact", { body });
    expect(replay.status).toBe(400);
    expect(replay.json).toMatchObject({ code: GUARD_CODES.token, message: expect.stringMatching(/already sent/) });
    expect(await storedFrom("token@example.com")).toBe(1);
  });

  test.each([
    ["missing", undefined, /missing/],
    ["too old", () => issueFormToken(Date.now() - 3 * 60 * 60 * 1000), /open too long/],
    ["forged", () => issueFormToken(Date.now() - 5000).replace(/.$/, (c) => (c === "A" ? "B" : "A")), /not valid/],
    ["from the future", () => issueFormToken(Date.now() + 60_000), /too quickly/],
  ])("a %s token is refused (400) and nothing is stored", async (_, token, message) => {
    const email = `bad-token-${Math.random().toString(36).slice(2)}@example.com`;
    for (const path of ["/api/contact", "/api/meetings/schedule", "/api/newsletter"] as const) {
      const handler = { "/api/contact": contact, "/api/meetings/schedule": meetings, "/api/newsletter": newsletter }[
        path
      ];
      const fields =
        path === "/api/contact"
          ? { ...enquiry, email }
          : path === "/api/newsletter"
            ? { email }
            : { name: "Bot", email, phone: "+31 20 123 4567", date: "2026-11-26", time: "09:00" };
      const res = await call(handler, path, { body: { ...fields, formToken: token?.(), website: "" }, guard: false });
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({
        success: false,
        code: GUARD_CODES.token,
        message: expect.stringMatching(message),
      });
    }
    expect(await storedFrom(email)).toBe(0);
  });

  test("a filled honeypot is refused on every form, and nothing is stored", async () => {
    const res = await call(contact, "/api/contact", {
      body: { ...formBody({ ...enquiry, email: "honey@example.com" }), website: "https://spam.example" },
    });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe(GUARD_CODES.honeypot);
    const booking = await call(meetings, "/api/meetings/schedule", {
      body: {
        ...formBody({
          name: "Bot",
          email: "honey@example.com",
          phone: "+31 20 123 4567",
          date: "2026-11-26",
          time: "09:00",
        }),
        website: "x",
      },
    });
    expect(booking.json.code).toBe(GUARD_CODES.honeypot);
    const signup = await call(newsletter, "/api/newsletter", {
      body: { ...formBody({ email: "honey@example.com" }), website: "x" },
    });
    expect(signup.json.code).toBe(GUARD_CODES.honeypot);
    expect(await storedFrom("honey@example.com")).toBe(0);
    expect(
      (await t.db.selectFrom("meetings").where("email", "=", "honey@example.com").select("id").execute()).length,
    ).toBe(0);
  });

  test("a cross-site post of any public form is refused (403) with a clear error; same-origin and header-less clients are not", async () => {
    const evil = { origin: "https://evil.example", "sec-fetch-site": "cross-site" };
    for (const [handler, path, body] of [
      [contact, "/api/contact", { ...enquiry, email: "csrf@example.com" }],
      [newsletter, "/api/newsletter", { email: "csrf@example.com" }],
      [
        meetings,
        "/api/meetings/schedule",
        { name: "Eve", email: "csrf@example.com", phone: "+31 20 123 4567", date: "2026-11-26", time: "10:00" },
      ],
    ] as const) {
      const res = await call(handler, path, { body, headers: evil });
      expect(res.status).toBe(403);
      expect(res.json).toMatchObject({
        success: false,
        code: GUARD_CODES.crossSite,
        message: expect.stringMatching(/Cross-site/),
      });
      // An Origin alone is enough, as is Sec-Fetch-Site alone.
      expect((await call(handler, path, { body, headers: { origin: "https://evil.example" } })).status).toBe(403);
      expect((await call(handler, path, { body, headers: { "sec-fetch-site": "same-site" } })).status).toBe(403);
    }
    // The form-encoded post a hostile page would make: a page saying what happened, nothing stored.
    const form = await formPost(formBody({ ...enquiry, email: "csrf@example.com", lang: "nl" }), evil);
    expect(form.status).toBe(403);
    expect(form.text).toContain('<html lang="nl" dir="ltr">');
    expect(form.text).toContain("Dit formulier kan niet van hier worden verstuurd");
    expect(await storedFrom("csrf@example.com")).toBe(0);
    // Our own pages, and a client that sends neither header (curl, a server), may post.
    const own = { origin: "http://localhost:8888", "sec-fetch-site": "same-origin" };
    expect(
      (await call(contact, "/api/contact", { body: { ...enquiry, email: "own@example.com" }, headers: own })).status,
    ).toBe(201);
    expect((await send("curl@example.com", "198.51.100.70")).status).toBe(201);
  });
});

describe("the no-JavaScript path", () => {
  const fields = { ...enquiry, email: "plain@example.com", company: "", lang: "fa" };

  test("a post without a token gets a confirm page with the visitor's fields and a fresh token; confirming stores the enquiry once", async () => {
    const first = await formPost(fields);
    expect(first.status).toBe(200);
    expect(first.headers.get("content-security-policy")).toMatch(/default-src 'none'; style-src 'sha256-/);
    expect(first.text).toContain('<html lang="fa" dir="rtl">');
    expect(first.text).toContain("یک گام دیگر");
    expect(first.text).toContain("We want to open an office in Amsterdam.");
    expect(await storedFrom("plain@example.com")).toBe(0);
    // The browser posts the confirm page's form: its hidden inputs.
    const hidden = Object.fromEntries(
      [...first.text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1], m[2]]),
    );
    expect(hidden).toMatchObject({ ...fields, formToken: expect.any(String) });
    const confirm = { ...hidden, website: "" };
    const tooFast = await formPost(confirm);
    expect(tooFast.status).toBe(200); // confirmed within a second: the confirm page again, nothing lost
    vi.setSystemTime(Date.now() + 3000);
    const sent = await formPost(confirm);
    expect(sent.status).toBe(303);
    expect(sent.headers.get("location")).toBe("/fa/enquiry/sent/");
    expect(await storedFrom("plain@example.com")).toBe(1);
    // The same token again (a reload, a replay): the thank-you page, nothing stored twice.
    const replay = await formPost(confirm);
    expect(replay.headers.get("location")).toBe("/fa/enquiry/sent/");
    expect(await storedFrom("plain@example.com")).toBe(1);
  });

  test("a too-old token gets the confirm page; a filled honeypot the error page; neither stores anything", async () => {
    const old = await formPost({
      ...fields,
      email: "old@example.com",
      formToken: issueFormToken(Date.now() - 3 * 3600_000),
    });
    expect(old.status).toBe(200);
    expect(old.text).toContain('name="formToken"');
    const honey = await formPost({
      ...formBody({ ...fields, email: "honey2@example.com" }),
      website: "http://spam.example",
    });
    expect(honey.status).toBe(303);
    expect(honey.headers.get("location")).toBe("/fa/enquiry/error/");
    expect(await storedFrom("old@example.com")).toBe(0);
    expect(await storedFrom("honey2@example.com")).toBe(0);
  });

  test("the newsletter's plain form confirms the same way", async () => {
    const first = await call(newsletter, "/api/newsletter", {
      raw: new URLSearchParams({ email: "plain-reader@example.com", lang: "nl" }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(first.status).toBe(200);
    expect(first.text).toContain("Nog één stap");
    expect(first.text).toContain('<input type="hidden" name="email" value="plain-reader@example.com">');
  });
});

describe("the client address", () => {
  test("comes from Netlify's context or the header its edge sets, never from X-Forwarded-For", () => {
    const req = (headers: Record<string, string>) => new Request("http://localhost/api/contact", { headers });
    expect(clientIp(req({ "x-forwarded-for": "1.2.3.4" }), { ip: "203.0.113.7" })).toBe("203.0.113.7");
    expect(clientIp(req({ "x-forwarded-for": "1.2.3.4", "x-nf-client-connection-ip": "203.0.113.8" }), {})).toBe(
      "203.0.113.8",
    );
    expect(clientIp(req({ "x-forwarded-for": "1.2.3.4" }), {})).toBe("unknown");
  });

  test("a spoofed X-Forwarded-For does not escape the flood limit", async () => {
    const { flood } = LIMITS.enquiryPerAddress;
    const statuses = [];
    for (let i = 0; i <= flood; i++) {
      const res = await call(contact, "/api/contact", {
        body: { ...enquiry, email: `spoof${i}@example.com` },
        ip: "",
        headers: { "x-nf-client-connection-ip": "198.51.100.80", "x-forwarded-for": `192.0.2.${i}` },
      });
      statuses.push(res.status);
    }
    expect(statuses.at(-1)).toBe(429);
  });
});
