import { beforeAll, beforeEach, describe, expect, test } from "vitest";
import { applyRetention } from "./retention.repository.ts";
import { erasePersonalData, exportPersonalData } from "./privacy.repository.ts";
import { type NewView, recordView, rollUpViews, sourcesChart } from "./sources.repository.ts";
import { bookingAsBefore, useTestDatabase } from "./testing.ts";
import type { FunnelRow, SourcesDay, TopRow } from "#shared/api/sources.ts";

const database = useTestDatabase();
// The privacy tools find failed sign-ins by a keyed hash, under a key derived from JWT_SECRET.
beforeAll(() => {
  process.env.JWT_SECRET ??= "test-secret-that-is-long-enough-for-hs256-0123456789";
});
const policy = { emailDays: 30, loginAttemptDays: 30, recordMonths: 24, newsletterPendingDays: 30 };

beforeEach(async () => {
  for (const table of ["pageViews", "pageViewDays", "enquiries", "meetings", "rateCounters"] as const)
    await database.db.deleteFrom(table).execute();
});

const view = (over: Partial<NewView> = {}): NewView => ({
  day: "2026-11-20",
  entry: true,
  path: "/fa/",
  lang: "fa",
  referrer: "",
  utmSource: "telegram",
  utmMedium: "",
  utmCampaign: "launch",
  device: "mobile",
  country: "",
  ...over,
});

const telegram = {
  page: "/fa/startup-visa",
  landing: "/fa/",
  referrer: null,
  utmSource: "telegram",
  utmMedium: null,
  utmCampaign: "launch",
  heard: "friend",
};

describe("recordView", () => {
  test("stores a view; past the address's limit in a window, stores nothing", async () => {
    const limit = { key: "views:test", windowSeconds: 60, limit: 3 };
    const at = Date.UTC(2026, 10, 20, 10, 0, 5);
    const stored = [];
    for (let i = 0; i < 5; i++) stored.push(await recordView(database.db, view(), limit, at));
    expect(stored).toEqual([true, true, true, false, false]);
    // The next window counts again.
    expect(await recordView(database.db, view(), limit, at + 60_000)).toBe(true);
    const { count } = await database.db
      .selectFrom("pageViews")
      .select((eb) => eb.fn.countAll<string>().as("count"))
      .executeTakeFirstOrThrow();
    expect(Number(count)).toBe(4);
  });
});

/** An enquiry of the telegram campaign, received on `day` at noon, at `stage` (a client with its value). */
const enquiry = (day: string, stage: "new" | "replied" | "client", valueCents: number | null = null) => ({
  firstName: "Sara",
  lastName: "Ahmadi",
  email: "sara@example.com",
  service: "startup-visa",
  message: "Hello",
  language: "fa",
  createdAt: new Date(`${day}T11:00:00Z`),
  source: JSON.stringify(telegram),
  stage,
  repliedAt: stage === "new" ? null : new Date(`${day}T15:00:00Z`),
  clientService: stage === "client" ? "startup-visa" : null,
  clientValueCents: valueCents,
});

describe("the funnel to clients", () => {
  test("3 enquiries of one campaign, 1 client worth €12,000: the campaign's row has 1 client, €12,000 and the rates", async () => {
    for (let i = 0; i < 3; i++) await recordView(database.db, view(), null);
    await recordView(database.db, view({ utmCampaign: "" }), null);
    await database.db
      .insertInto("enquiries")
      .values([
        enquiry("2026-11-20", "new"),
        enquiry("2026-11-20", "replied"),
        enquiry("2026-11-20", "client", 1_200_000),
      ])
      .execute();
    const rows = (await sourcesChart(database.db, "campaign", "2026-11-01", "2026-11-30")) as FunnelRow[];
    expect(rows.find((r) => r.key === "launch")).toEqual({
      key: "launch",
      visits: 3,
      enquiries: 3,
      replied: 2,
      clients: 1,
      clientValueCents: 1_200_000,
      meetings: 0,
      meetingsDone: 0,
    });
    expect(rows.find((r) => r.key === "")).toMatchObject({ visits: 1, enquiries: 0, clients: 0 });
    // The same leads by source and by day; the period before knows none of them.
    expect(await sourcesChart(database.db, "source", "2026-11-01", "2026-11-30")).toEqual([
      expect.objectContaining({ key: "telegram", enquiries: 3, replied: 2, clients: 1, clientValueCents: 1_200_000 }),
    ]);
    const days = (await sourcesChart(database.db, "daily", "2026-11-20", "2026-11-20")) as SourcesDay[];
    expect(days[0]).toMatchObject({ enquiries: 3, replied: 2, clients: 1, clientValueCents: 1_200_000 });
    expect(await sourcesChart(database.db, "campaign", "2026-10-02", "2026-10-31")).toEqual([]);
  });

  test("the clients' values add up past a 32-bit integer without overflow", async () => {
    // Each at the largest value a lead may carry (MAX_VALUE_CENTS): five of them are 5 × 10^9 cents.
    await database.db
      .insertInto("enquiries")
      .values(Array.from({ length: 5 }, () => enquiry("2026-11-20", "client", 1_000_000_000)))
      .execute();
    const [row] = (await sourcesChart(database.db, "campaign", "2026-11-01", "2026-11-30")) as FunnelRow[];
    expect(row).toMatchObject({ key: "launch", clients: 5, clientValueCents: 5_000_000_000 });
  });
});

describe("rollUpViews and the charts", () => {
  test("a finished day is folded into its daily counts once; the figures are the same before and after", async () => {
    for (let i = 0; i < 3; i++) await recordView(database.db, view(), null);
    await recordView(database.db, view({ entry: false, path: "/fa/startup-visa" }), null);
    await recordView(
      database.db,
      view({ day: "2026-11-21", utmSource: "", utmCampaign: "", referrer: "linkedin.com", path: "/en/", lang: "en" }),
      null,
    );
    await database.db
      .insertInto("meetings")
      .values({
        consultantId: await bookingAsBefore(database.db),
        name: "Nima",
        email: "nima@example.com",
        phone: "+31 6 1234 5678",
        date: "2026-11-25",
        time: "10:00",
        language: "fa",
        createdAt: new Date("2026-11-20T12:00:00Z"),
        source: JSON.stringify(telegram),
      })
      .execute();

    const charts = ["daily", "source", "campaign", "landing", "language", "pages", "referrers"] as const;
    const all = () => Promise.all(charts.map((chart) => sourcesChart(database.db, chart, "2026-11-01", "2026-11-30")));
    const everyChartBefore = await all();
    const before = await sourcesChart(database.db, "source", "2026-11-01", "2026-11-30");
    const expected: FunnelRow[] = [
      {
        key: "telegram",
        visits: 3,
        enquiries: 0,
        replied: 0,
        clients: 0,
        clientValueCents: 0,
        meetings: 1,
        meetingsDone: 0,
      },
      {
        key: "linkedin.com",
        visits: 1,
        enquiries: 0,
        replied: 0,
        clients: 0,
        clientValueCents: 0,
        meetings: 0,
        meetingsDone: 0,
      },
    ];
    expect(before).toEqual(expected);

    expect(await rollUpViews(database.db, "2026-11-21")).toBe(4);
    expect(await rollUpViews(database.db, "2026-11-21")).toBe(0);
    expect(await sourcesChart(database.db, "source", "2026-11-01", "2026-11-30")).toEqual(expected);
    // Every chart reads the rolled-up days (page_view_keys) as it read the raw views.
    expect(await all()).toEqual(everyChartBefore);
    expect(await database.db.selectFrom("pageViewKeys").select("dim").distinct().orderBy("dim").execute()).toEqual(
      ["all", "campaign", "lang", "path", "referrer", "source"].map((dim) => ({ dim })),
    );

    const days = (await sourcesChart(database.db, "daily", "2026-11-20", "2026-11-21")) as SourcesDay[];
    expect(days).toEqual([
      {
        day: "2026-11-20",
        views: 4,
        visits: 3,
        enquiries: 0,
        replied: 0,
        clients: 0,
        clientValueCents: 0,
        meetings: 1,
        meetingsDone: 0,
      },
      {
        day: "2026-11-21",
        views: 1,
        visits: 1,
        enquiries: 0,
        replied: 0,
        clients: 0,
        clientValueCents: 0,
        meetings: 0,
        meetingsDone: 0,
      },
    ]);
    const pages = (await sourcesChart(database.db, "pages", "2026-11-20", "2026-11-21")) as TopRow[];
    expect(pages[0]).toEqual({ key: "/fa/", views: 3, visits: 3 });
    expect(await sourcesChart(database.db, "landing", "2026-11-20", "2026-11-21")).toEqual([
      {
        key: "/fa/",
        visits: 3,
        enquiries: 0,
        replied: 0,
        clients: 0,
        clientValueCents: 0,
        meetings: 1,
        meetingsDone: 0,
      },
      {
        key: "/en/",
        visits: 1,
        enquiries: 0,
        replied: 0,
        clients: 0,
        clientValueCents: 0,
        meetings: 0,
        meetingsDone: 0,
      },
    ]);
    expect(await sourcesChart(database.db, "referrers", "2026-11-20", "2026-11-21")).toEqual([
      { key: "linkedin.com", views: 1, visits: 1 },
    ]);
  });

  test("the retention run rolls up finished days and deletes daily counts past 25 months", async () => {
    await recordView(database.db, view({ day: "2026-11-22" }), null);
    await recordView(database.db, view({ day: "2026-11-23" }), null);
    const { entry: _entry, ...old } = view({ day: "2024-10-01" });
    await database.db
      .insertInto("pageViewDays")
      .values({ ...old, views: 5, visits: 2 })
      .execute();
    await database.db
      .insertInto("pageViewKeys")
      .values({ day: "2024-10-01", dim: "all", key: "", views: 5, visits: 2 })
      .execute();
    const result = await applyRetention(database.db, policy, new Date("2026-11-23T12:00:00Z"));
    expect(result.viewsRolledUp).toBe(1);
    expect(result.viewDaysDeleted).toBe(1);
    expect(
      await database.db.selectFrom("pageViewKeys").select("day").where("day", "<", "2026-01-01").execute(),
    ).toEqual([]);
    expect(await database.db.selectFrom("pageViews").select("day").execute()).toHaveLength(1);
  });
});

describe("a person's sources", () => {
  test("are in their export, and their erasure removes them", async () => {
    await database.db
      .insertInto("enquiries")
      .values({
        firstName: "Sara",
        lastName: "Rahimi",
        email: "sara@example.com",
        company: null,
        service: "startup-visa",
        message: "We want to open an office in Amsterdam.",
        source: JSON.stringify(telegram),
      })
      .execute();
    const exported = await exportPersonalData(database.db, "sara@example.com", new Date());
    expect(exported.enquiries[0].source).toEqual(telegram);
    await erasePersonalData(database.db, "sara@example.com");
    const row = await database.db.selectFrom("enquiries").select("source").executeTakeFirstOrThrow();
    expect(row.source).toBeNull();
  });
});
