import { readFileSync } from "node:fs";
import { beforeEach, describe, expect, test, vi } from "vitest";
import { pruneCounters } from "#db/rate-limits.repository.ts";
import { config as outboxRetry } from "../outbox-retry.ts";
import { apiTestbed, call, type ApiTestDatabase } from "./harness.ts";
import views from "../views.ts";
import adminSources from "../admin-sources.ts";
import adminSubmissions from "../admin-submissions.ts";
import contact from "../contact.ts";
import meetings from "../meetings.ts";
import { BOM } from "../_lib/http/csv.ts";
import { pages } from "#src/data/services.ts";
import { SITE_PAGE_PATHS } from "#shared/sources.ts";

let t: ApiTestDatabase;
let cookie = "";
apiTestbed({ bookingAsBefore: true, admin: "owner" }, (bed) => ({ t, cookie } = bed));

const BROWSER =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Version/18.0 Mobile Safari/604.1";
const beacon = (body: unknown, headers: Record<string, string> = {}, ip = "198.51.100.1") =>
  call(views, "/api/views", {
    method: "POST",
    raw: typeof body === "string" ? body : JSON.stringify(body),
    headers: {
      "content-type": "text/plain;charset=UTF-8",
      "user-agent": BROWSER,
      "sec-fetch-site": "same-origin",
      ...headers,
    },
    ip,
  });
const stored = () => t.db.selectFrom("pageViews").selectAll().orderBy("id").execute();

beforeEach(async () => {
  process.env.RATE_LIMIT = "on";
  await t.db.deleteFrom("pageViews").execute();
  await t.db.deleteFrom("rateCounters").execute();
});

test("the counter knows exactly the site's pages (src/data/services.ts)", () => {
  expect([...SITE_PAGE_PATHS].sort()).toEqual(pages.map((p) => p.path).sort());
});

describe("POST /api/views", () => {
  test("counts a view of one of the site's pages with its allowlisted dimensions, and nothing that identifies", async () => {
    const res = await beacon({ p: "/fa/", r: "t.me", s: "Telegram", m: "Social", c: "Launch", e: 1 });
    expect(res.status).toBe(204);
    const rows = await stored();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      entry: true,
      path: "/fa/",
      lang: "fa",
      referrer: "t.me",
      utmSource: "telegram",
      utmMedium: "social",
      utmCampaign: "launch",
      device: "mobile",
    });
    expect(JSON.stringify(rows[0])).not.toContain("198.51.100.1");
  });

  test("robots, prefetches, other sites and pages that are not ours are answered alike and not counted", async () => {
    const answers = [
      await beacon({ p: "/fa/" }, { "user-agent": "Googlebot/2.1 (+http://www.google.com/bot.html)" }),
      await beacon({ p: "/fa/" }, { "user-agent": "Mozilla/5.0 HeadlessChrome/140.0" }),
      await beacon({ p: "/fa/" }, { "user-agent": "" }),
      await beacon({ p: "/fa/" }, { "sec-purpose": "prefetch;prerender" }),
      await beacon({ p: "/fa/" }, { purpose: "prefetch" }),
      await beacon({ p: "/fa/" }, { "sec-fetch-site": "cross-site" }),
      await beacon({ p: "/fa/<script>alert(1)</script>" }),
      await beacon({ p: "/admin/submissions" }),
      await beacon({ p: "https://evil.example/" }),
    ];
    expect(answers.map((a) => a.status)).toEqual(Array(answers.length).fill(204));
    expect(await stored()).toEqual([]);
  });

  test("hostile tags are cut and filtered: a 10 KB campaign, script tags; control characters are refused", async () => {
    const long = "a".repeat(10_000);
    expect((await beacon({ p: "/en/", c: long })).status).toBe(413);
    expect((await beacon({ p: "/en/", c: "a".repeat(300) })).status).toBe(400);
    expect(
      (await beacon({ p: "/en/", s: "<script>alert(1)</script>", c: `"><img src=x onerror=alert(1)>` })).status,
    ).toBe(204);
    expect((await beacon({ p: "/en/", c: "launch\u0000\u001b[31m" })).status).toBe(400);
    const rows = await stored();
    expect(rows.map((r) => [r.utmSource, r.utmCampaign])).toEqual([["scriptalert1script", "img-srcx-onerroralert1"]]);
  });

  test("malformed bodies are a 400, never a 500: not JSON, an array, nesting, prototype keys, wrong types", async () => {
    const bodies = [
      "not json",
      "[]",
      "null",
      JSON.stringify({ p: { p: { p: "/en/" } } }),
      '{"__proto__": {"p": "/en/"}}',
      JSON.stringify({ constructor: { prototype: { p: "/en/" } } }),
      JSON.stringify({ p: 42 }),
      "[".repeat(1500),
    ];
    for (const body of bodies) expect((await beacon(body)).status, body.slice(0, 40)).toBe(400);
    expect(await stored()).toEqual([]);
  });

  test("past the limit per address, views are no longer counted; the answer does not change", async () => {
    // The limit counts in fixed minutes: the clock stands still five seconds into one, so the 70
    // views fall in the same minute whenever the test runs (it once straddled two and counted 61).
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-11-27T12:00:05Z") });
    try {
      for (let i = 0; i < 70; i++) expect((await beacon({ p: "/nl/" }, {}, "192.0.2.50")).status).toBe(204);
      expect(await stored()).toHaveLength(60);
      expect((await beacon({ p: "/nl/" }, {}, "192.0.2.51")).status).toBe(204);
      expect(await stored()).toHaveLength(61);
    } finally {
      vi.useRealTimers();
    }
  });
});

test("the per-address counter's keyed hash lives at most about 17 minutes, as docs/operator.md says", async () => {
  vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-11-27T12:00:05Z") });
  try {
    await beacon({ p: "/nl/" }, {}, "192.0.2.60");
  } finally {
    vi.useRealTimers();
  }
  const [counter] = await t.db.selectFrom("rateCounters").select(["key", "expiresAt"]).execute();
  expect(counter.key).not.toContain("192.0.2.60");
  // Spent two minutes after its minute began; deleted by the next clean-up run, every 15 minutes.
  expect(counter.expiresAt.toISOString()).toBe("2026-11-27T12:02:00.000Z");
  expect(outboxRetry.schedule).toBe("*/15 * * * *");
  expect(await pruneCounters(t.db, Date.parse("2026-11-27T12:02:01Z"))).toBe(1);
  const docs = readFileSync(new URL("../../docs/operator.md", import.meta.url), "utf8").replace(/\s+/g, " ");
  expect(docs).toContain("expires two minutes after its minute began");
  expect(docs).toContain("(every 15 minutes,");
  expect(docs).toContain("at most about 17 minutes after the view");
});

describe("GET /api/views (the no-JavaScript image)", () => {
  test("counts the page as a visit, with the campaign of the page's own address; answers a 1×1 GIF", async () => {
    const res = await call(views, "/api/views?p=%2Fen%2Fstartup-visa", {
      headers: {
        "user-agent": BROWSER,
        referer: "http://localhost:8888/en/startup-visa?utm_source=LinkedIn&utm_campaign=Spring",
      },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/gif");
    expect(await stored()).toMatchObject([
      { path: "/en/startup-visa", utmSource: "linkedin", utmCampaign: "spring", entry: true },
    ]);
  });
  test("control characters in the query are refused (400); another site's Referer brings no tags", async () => {
    expect((await call(views, "/api/views?p=%2Fen%2F%0A", { headers: { "user-agent": BROWSER } })).status).toBe(400);
    await call(views, "/api/views?p=%2Fen%2F", {
      headers: { "user-agent": BROWSER, referer: "https://evil.example/?utm_source=evil" },
    });
    expect(await stored()).toMatchObject([{ path: "/en/", utmSource: "" }]);
  });
});

describe("lead sources", () => {
  test("an enquiry keeps its source, reduced by the rules; unknown pages and choices become null", async () => {
    const res = await call(contact, "/api/contact", {
      body: {
        firstName: "Sara",
        lastName: "Rahimi",
        email: "sara.source@example.com",
        service: "startup-visa",
        message: "We want to open an office in Amsterdam.",
        source: {
          page: "/fa/startup-visa",
          landing: "/fa/?x=1",
          referrer: "https://www.t.me/channel",
          utmSource: "Telegram",
          utmCampaign: "<b>Launch</b>",
          heard: "not-a-choice",
        },
      },
    });
    expect(res.status).toBe(201);
    const row = await t.db
      .selectFrom("enquiries")
      .select("source")
      .where("id", "=", res.json.id)
      .executeTakeFirstOrThrow();
    expect(row.source).toEqual({
      page: "/fa/startup-visa",
      landing: "/fa/",
      referrer: "t.me",
      utmSource: "telegram",
      utmMedium: null,
      utmCampaign: "blaunchb",
      heard: null,
    });
  });
  test("a source with a 10 KB value or prototype keys is refused or ignored, never a 500", async () => {
    const base = {
      firstName: "Sara",
      lastName: "Rahimi",
      email: "sara.hostile@example.com",
      service: "startup-visa",
      message: "We want to open an office in Amsterdam.",
    };
    expect(
      (await call(contact, "/api/contact", { body: { ...base, source: { utmCampaign: "x".repeat(10_000) } } })).status,
    ).toBe(400);
    const proto = await call(contact, "/api/contact", {
      raw: JSON.stringify({ ...base, source: JSON.parse('{"__proto__": {"heard": "friend"}, "heard": "friend"}') }),
      headers: { "content-type": "application/json" },
    });
    expect(proto.status).toBeLessThan(500);
  });
  test("the meetings answer is unchanged by a missing source", async () => {
    const res = await call(meetings, "/api/meetings/available-slots?date=2026-13-01");
    expect(res.status).toBe(400);
  });
});

describe("GET /api/admin/sources", () => {
  test("admin only; each chart answers JSON or CSV; bad queries are a 400", async () => {
    expect((await call(adminSources, "/api/admin/sources?chart=source&from=2026-11-01&to=2026-11-30")).status).toBe(
      401,
    );
    await beacon({ p: "/fa/", s: "telegram", c: "launch", e: 1 });
    for (const chart of ["daily", "source", "campaign", "landing", "language", "pages", "referrers"]) {
      const res = await call(adminSources, `/api/admin/sources?chart=${chart}&from=2020-01-01&to=2021-12-31`, {
        cookie,
      });
      expect(res.status, chart).toBe(200);
      expect(Array.isArray(res.json.rows)).toBe(true);
    }
    const csv = await call(adminSources, "/api/admin/sources?chart=campaign&from=2026-01-01&to=2027-12-31&format=csv", {
      cookie,
    });
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(csv.text.replace(BOM, "").startsWith("key,visits,enquiries,meetings,meetingsDone,")).toBe(true);
    // 800 office days, both ends counted, is the most a range may hold; the period before the first
    // day a date may name (1970) is still answered, empty.
    for (const range of ["from=2026-01-01&to=2028-03-10", "from=1970-01-01&to=1972-03-10"]) {
      const res = await call(adminSources, `/api/admin/sources?chart=daily&${range}`, { cookie });
      expect(res.status, range).toBe(200);
      expect(res.json.previous.rows, range).toHaveLength(800);
    }
    const early = await call(adminSources, "/api/admin/sources?chart=daily&from=1970-01-01&to=1970-01-02", { cookie });
    expect(early.json.previous).toMatchObject({ from: "1969-12-30", to: "1969-12-31" });
    for (const query of [
      "chart=__proto__&from=2026-01-01&to=2026-01-02",
      "chart=source&from=2026-02-30&to=2026-03-01",
      "chart=source&from=2026-03-02&to=2026-03-01",
      "chart=source&from=2000-01-01&to=2026-03-01",
      "chart=source&from=2026-01-01&to=2026-01-02&format=xml",
      "chart=source",
      // 801 office days (the most is 800, both ends counted).
      "chart=source&from=2026-01-01&to=2028-03-11",
      // A repeated parameter is refused, not read as its first value; so is an unknown one.
      "chart=source&chart=daily&from=2026-01-01&to=2026-01-02",
      "chart=source&from=2026-01-01&from=2025-01-01&to=2026-01-02",
      "chart=source&from=2026-01-01&to=2026-01-02&to=2026-01-03",
      "chart=source&from=2026-01-01&to=2026-01-02&format=csv&format=json",
      "chart=source&from=2026-01-01&to=2026-01-02&__proto__=1",
    ]) {
      expect((await call(adminSources, `/api/admin/sources?${query}`, { cookie })).status, query).toBe(400);
    }
  });
});

describe("the Sources figures' rates and previous period", () => {
  test("each answer carries the period of the same length just before; the CSV has the rates and its figures", async () => {
    const at = (iso: string) => (process.env.BOOKING_NOW = iso);
    try {
      // Two visits from Telegram on 10 November, four on 20 November with one enquiry.
      at("2026-11-10T10:00:00Z");
      for (const ip of ["198.51.100.11", "198.51.100.12"]) await beacon({ p: "/fa/", s: "telegram", e: 1 }, {}, ip);
      at("2026-11-20T10:00:00Z");
      for (const ip of ["198.51.100.21", "198.51.100.22", "198.51.100.23", "198.51.100.24"])
        await beacon({ p: "/fa/", s: "telegram", e: 1 }, {}, ip);
    } finally {
      delete process.env.BOOKING_NOW;
    }
    await t.db
      .insertInto("enquiries")
      .values({
        firstName: "Rate",
        lastName: "Test",
        email: "rate@example.com",
        service: "startup-visa",
        message: "A message long enough.",
        language: "fa",
        createdAt: new Date("2026-11-20T11:00:00Z"),
        source: JSON.stringify({ utmSource: "telegram" }),
      })
      .execute();
    const res = await call(adminSources, "/api/admin/sources?chart=source&from=2026-11-16&to=2026-11-25", { cookie });
    expect(res.status).toBe(200);
    expect(res.json.previous.from).toBe("2026-11-06");
    expect(res.json.previous.to).toBe("2026-11-15");
    expect(res.json.rows.find((r: { key: string }) => r.key === "telegram")).toMatchObject({ visits: 4, enquiries: 1 });
    expect(res.json.previous.rows.find((r: { key: string }) => r.key === "telegram")).toMatchObject({
      visits: 2,
      enquiries: 0,
    });

    const csv = await call(adminSources, "/api/admin/sources?chart=source&from=2026-11-16&to=2026-11-25&format=csv", {
      cookie,
    });
    const [header, ...lines] = csv.text.replace(BOM, "").trim().split("\r\n");
    expect(header).toBe(
      `key,visits,enquiries,meetings,meetingsDone,enquiriesPerVisit,meetingsPerEnquiry,previousVisits,previousEnquiries,previousMeetings,previousMeetingsDone,${LEAD_COLUMNS}`,
    );
    expect(lines).toContain("telegram,4,1,0,0,0.2500,0.0000,2,0,0,0,0,0,0.00,0.0000,0.0000,0,0,0.00");

    const daily = await call(adminSources, "/api/admin/sources?chart=daily&from=2026-11-16&to=2026-11-25&format=csv", {
      cookie,
    });
    const days = daily.text.replace(BOM, "").trim().split("\r\n");
    expect(days[0]).toBe(
      `day,views,visits,enquiries,meetings,meetingsDone,enquiriesPerVisit,meetingsPerEnquiry,previousDay,previousViews,previousVisits,previousEnquiries,previousMeetings,previousMeetingsDone,${LEAD_COLUMNS}`,
    );
    // 20 November sits fifth in its period, as 10 November in the one before.
    expect(days[5]).toBe("2026-11-20,4,4,1,0,0,0.2500,0.0000,2026-11-10,2,2,0,0,0,0,0,0.00,0.0000,0.0000,0,0,0.00");
    expect(days[1]).toBe("2026-11-16,0,0,0,0,0,,,2026-11-06,0,0,0,0,0,0,0,0.00,,,0,0,0.00");
  });
});

const LEAD_COLUMNS =
  "replied,clients,clientValueEur,repliedPerEnquiry,clientsPerEnquiry,previousReplied,previousClients,previousClientValueEur";

describe("the Sources funnel to clients", () => {
  test("3 enquiries of a campaign, one made a client worth €12,000 through the API: the campaign's row and CSV", async () => {
    const ids: number[] = [];
    for (const firstName of ["Ana", "Bo", "Cy"]) {
      const row = await t.db
        .insertInto("enquiries")
        .values({
          firstName,
          lastName: "Funnel",
          email: `${firstName.toLowerCase()}@example.com`,
          service: "startup-visa",
          message: "A message long enough.",
          language: "nl",
          createdAt: new Date("2026-10-20T11:00:00Z"),
          source: JSON.stringify({ utmSource: "linkedin", utmCampaign: "autumn" }),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      ids.push(row.id);
    }
    const patch = (id: number, body: unknown) =>
      call(adminSubmissions, `/api/admin/submissions/${id}`, {
        method: "PATCH",
        body,
        params: { id: String(id) },
        cookie,
      });
    // A value past the limit (ten million euros), or not a whole number of cents, is refused and changes nothing.
    for (const clientValueCents of [1_000_000_001, 1e300, 12.5, -1, "1200000"])
      expect(
        (await patch(ids[0], { version: 0, stage: "client", clientService: "startup-visa", clientValueCents })).status,
      ).toBe(400);
    expect(
      (await patch(ids[0], { version: 0, stage: "client", clientService: "startup-visa", clientValueCents: 1_200_000 }))
        .status,
    ).toBe(200);
    expect((await patch(ids[1], { version: 0, stage: "replied" })).status).toBe(200);

    const res = await call(adminSources, "/api/admin/sources?chart=campaign&from=2026-10-01&to=2026-10-31", { cookie });
    expect(res.json.rows.find((r: { key: string }) => r.key === "autumn")).toMatchObject({
      enquiries: 3,
      replied: 2,
      clients: 1,
      clientValueCents: 1_200_000,
    });
    // The month before had none of them: the comparison says 0.
    expect(res.json.previous.rows.find((r: { key: string }) => r.key === "autumn")).toBeUndefined();
    const csv = await call(adminSources, "/api/admin/sources?chart=campaign&from=2026-10-01&to=2026-10-31&format=csv", {
      cookie,
    });
    const lines = csv.text.replace(BOM, "").trim().split("\r\n");
    expect(lines[0].endsWith(`,${LEAD_COLUMNS}`)).toBe(true);
    expect(lines).toContain("autumn,0,3,0,0,,0.0000,0,0,0,0,2,1,12000.00,0.6667,0.3333,0,0,0.00");
    // A repeated parameter is still refused.
    const twice = "/api/admin/sources?chart=campaign&from=2026-10-01&to=2026-10-31&format=csv&format=csv";
    expect((await call(adminSources, twice, { cookie })).status).toBe(400);
  });
});
