/**
 * The admin's pipeline tools against a real database: paging while rows arrive, search across
 * languages, every filter, the CSV export read back with a CSV parser, notes, the figures.
 */
import { bookingAsBefore, firstConsultantMeeting } from "#db/testing.ts";
import { parse as parseCsv } from "csv-parse/sync";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ensureAdmin } from "#db/admins.ts";
import { createEnquiry, type NewEnquiryInput } from "#db/enquiries.repository.ts";
import { createMeeting } from "#db/meetings.repository.ts";
import { enqueue } from "#db/outbox.repository.ts";
import { fold } from "#db/search.ts";
import { filtersToParams, NOTE_MAX_LENGTH, parseEnquiryFilters } from "#shared/admin-lists.ts";
import type { AdminEnquiry, Enquiry } from "#shared/api/enquiries.ts";
import type { AdminMeeting } from "#shared/api/meetings.ts";
import adminExport from "../admin-export.ts";
import adminMeetings from "../admin-meetings.ts";
import notes from "../admin-notes.ts";
import stats from "../admin-stats.ts";
import enquiries from "../admin-submissions.ts";
import login from "../login.ts";
import { call, ORIGIN, setupApiDatabase } from "./harness.ts";

let t: Awaited<ReturnType<typeof setupApiDatabase>>;
let cookie = "";
let otherCookie = "";
const PASSWORD = "correct horse battery staple";

async function signIn(username: string) {
  const res = await call(login, "/api/login", {
    body: { username, password: PASSWORD },
    ip: `198.51.100.${username.length}`,
  });
  return res.headers.get("set-cookie")?.split(";")[0] ?? "";
}

beforeAll(async () => {
  t = await setupApiDatabase();
  await bookingAsBefore(t.db);
  await ensureAdmin(t.db, "maryam", PASSWORD);
  await ensureAdmin(t.db, "joost", PASSWORD);
  cookie = await signIn("maryam");
  otherCookie = await signIn("joost");
}, 60_000);
afterAll(async () => {
  await t?.destroy();
});

const enquiry = (overrides: Partial<NewEnquiryInput> = {}): NewEnquiryInput => ({
  firstName: "Test",
  lastName: "Visitor",
  email: "visitor@example.com",
  company: null,
  service: "other",
  message: "A message long enough to pass.",
  language: "en",
  ...overrides,
});

/** Stores an enquiry as if it came in at `createdAt`. */
async function enquiryAt(createdAt: string, overrides: Partial<NewEnquiryInput> = {}) {
  const e = await createEnquiry(t.db, enquiry(overrides));
  await sql`UPDATE enquiries SET created_at = ${createdAt} WHERE id = ${e.id}`.execute(t.db);
  return e;
}

/** Every page of a list, following the Link headers; the ids in order. */
async function allPages(path: string, who = cookie): Promise<number[]> {
  const ids: number[] = [];
  let next: string | null = path;
  while (next) {
    const res = await call(next.includes("meetings") ? adminMeetings : enquiries, next, { cookie: who });
    expect(res.status, `${next}: ${res.text}`).toBe(200);
    ids.push(...res.json.map((r: { id: number }) => r.id));
    const link = res.headers.get("link");
    next = link ? /<([^>]+)>; rel="next"/.exec(link)![1] : null;
  }
  return ids;
}

const search = async (q: string) =>
  (await call(enquiries, `/api/admin/submissions?${new URLSearchParams({ q })}`, { cookie })).json as AdminEnquiry[];

describe("paging", () => {
  test("no duplicates and no gaps across pages while new enquiries arrive", async () => {
    await t.db.deleteFrom("enquiries").execute();
    // Several rows share one timestamp: the id breaks the tie, so the cursor is still exact.
    for (let i = 0; i < 12; i++) await enquiryAt(`2026-11-${10 + (i % 4)}T10:00:00.000Z`, { lastName: `Row ${i}` });
    const before = (
      await t.db.selectFrom("enquiries").select("id").orderBy("createdAt", "desc").orderBy("id", "desc").execute()
    ).map((r) => r.id);
    const seen: number[] = [];
    let next: string | null = "/api/admin/submissions?limit=5";
    while (next) {
      const res = await call(enquiries, next, { cookie });
      seen.push(...res.json.map((r: { id: number }) => r.id));
      // A visitor writes in between two pages: the new row belongs before page one, never inside the walk.
      await createEnquiry(t.db, enquiry({ lastName: "Arrived meanwhile" }));
      const link = res.headers.get("link");
      next = link ? /<([^>]+)>; rel="next"/.exec(link)![1] : null;
    }
    expect(seen).toEqual(before);
    expect(new Set(seen).size).toBe(seen.length);
  });

  test("oldest first walks the same rows the other way; a cursor of another sort is a 400", async () => {
    const newest = await allPages("/api/admin/submissions?limit=4");
    const oldest = await allPages("/api/admin/submissions?limit=4&sort=oldest");
    expect(oldest).toEqual([...newest].reverse());
    const first = await call(enquiries, "/api/admin/submissions?limit=2", { cookie });
    const cursor = new URL(/<([^>]+)>/.exec(first.headers.get("link")!)![1], ORIGIN).searchParams.get("cursor")!;
    const mixed = await call(enquiries, `/api/admin/submissions?limit=2&sort=oldest&cursor=${cursor}`, { cookie });
    expect(mixed.status).toBe(400);
    expect(mixed.json.message).toMatch(/cursor is not valid/);
  });

  test("the Link keeps the search and filters", async () => {
    const res = await call(enquiries, "/api/admin/submissions?limit=1&stage=new&q=visitor", { cookie });
    const link = res.headers.get("link")!;
    const next = new URL(/<([^>]+)>/.exec(link)![1], ORIGIN).searchParams;
    expect(next.get("stage")).toBe("new");
    expect(next.get("q")).toBe("visitor");
  });
});

describe("search", () => {
  let persian: Enquiry;
  let dutch: Enquiry;
  beforeAll(async () => {
    await t.db.deleteFrom("enquiries").execute();
    // Typed with Persian ی (U+06CC) and ک (U+06A9), and a zero-width non-joiner in می‌خواهم.
    persian = await enquiryAt("2026-11-20T09:00:00.000Z", {
      firstName: "علی",
      lastName: "کریمی",
      email: "ali.karimi@example.ir",
      company: "شرکت نیک",
      message: "می\u200cخواهم شرکتم را در هلند ثبت کنم.",
      language: "fa",
    });
    dutch = await enquiryAt("2026-11-21T09:00:00.000Z", {
      firstName: "Zoë",
      lastName: "Hendriks",
      email: "zoe@example.nl",
      company: "Café Ruïne BV",
      message: "Wij willen uitbreiden naar België, 100% zeker.",
      language: "nl",
    });
    await enquiryAt("2026-11-22T09:00:00.000Z", { firstName: "John", lastName: "Smith", email: "john@example.com" });
  });

  test("a Persian query written with Arabic ي and ك finds a record typed with Persian ی and ک", async () => {
    expect((await search("علي")).map((e) => e.id)).toEqual([persian.id]); // Arabic yeh U+064A
    expect((await search("كريمي")).map((e) => e.id)).toEqual([persian.id]); // Arabic kaf U+0643 and yeh
    expect((await search("شركت نيك")).map((e) => e.id)).toEqual([persian.id]); // the company, Arabic letters
  });

  test("a zero-width non-joiner never stands between a query and its record", async () => {
    expect((await search("میخواهم")).map((e) => e.id)).toEqual([persian.id]);
    expect((await search("می\u200cخواهم")).map((e) => e.id)).toEqual([persian.id]);
  });

  test("a Dutch query without accents finds an accented name, and the other way round", async () => {
    expect((await search("zoe hendriks")).map((e) => e.id)).toEqual([dutch.id]);
    expect((await search("cafe ruine")).map((e) => e.id)).toEqual([dutch.id]);
    expect((await search("BELGIE")).map((e) => e.id)).toEqual([dutch.id]);
    expect((await search("Zoë")).map((e) => e.id)).toEqual([dutch.id]);
  });

  test("searches name, email, company and message; wildcards are plain text", async () => {
    expect((await search("smith")).length).toBe(1);
    expect((await search("ZOE@EXAMPLE")).map((e) => e.id)).toEqual([dutch.id]);
    expect((await search("uitbreiden")).map((e) => e.id)).toEqual([dutch.id]);
    expect((await search("100%")).map((e) => e.id)).toEqual([dutch.id]);
    expect((await search("%")).map((e) => e.id)).toEqual([dutch.id]);
    expect(await search("_")).toEqual([]);
    expect(await search("nobody at all")).toEqual([]);
  });

  test("the fold the column and the query share", async () => {
    const folded = async (text: string) =>
      (await sql<{ f: string }>`SELECT ${fold(text)} AS f`.execute(t.db)).rows[0].f;
    expect(await folded("  Zoë  ÉCOLE  Straße ")).toBe("zoe ecole strasse");
    expect(await folded("علي كريمي")).toBe(await folded("علی کریمی"));
    expect(await folded("۱۲۳ ١٢٣")).toBe("123 123");
    expect(await folded("می\u200cخواهم")).toBe("میخواهم");
  });

  test("a query over 100 characters is a 400", async () => {
    const res = await call(enquiries, `/api/admin/submissions?q=${"a".repeat(101)}`, { cookie });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe("q must be 1 to 100 characters");
  });
});

describe("filters", () => {
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    await t.db.deleteFrom("enquiries").execute();
    ids.visaFa = (await enquiryAt("2026-11-02T12:00:00.000Z", { service: "startup-visa", language: "fa" })).id;
    ids.studioNl = (await enquiryAt("2026-11-10T12:00:00.000Z", { service: "startup-studio", language: "nl" })).id;
    ids.otherEn = (await enquiryAt("2026-11-20T12:00:00.000Z", { service: "other", language: "en" })).id;
    // 23:30 UTC on 30 November is 00:30 on 1 December in Amsterdam: the office's date decides.
    ids.lateNight = (await enquiryAt("2026-11-30T23:30:00.000Z", { service: "other", language: "en" })).id;
    await t.db.updateTable("enquiries").set({ stage: "replied" }).where("id", "=", ids.studioNl).execute();
  });

  const list = async (query: string) => allPages(`/api/admin/submissions?${query}`);

  test("stage, service, language and a date range, each alone and together", async () => {
    expect(await list("stage=replied")).toEqual([ids.studioNl]);
    expect(await list("stage=new")).toEqual([ids.lateNight, ids.otherEn, ids.visaFa]);
    expect(await list("service=startup-visa")).toEqual([ids.visaFa]);
    expect(await list("language=nl")).toEqual([ids.studioNl]);
    expect(await list("from=2026-11-10&to=2026-11-20")).toEqual([ids.otherEn, ids.studioNl]);
    expect(await list("from=2026-12-01")).toEqual([ids.lateNight]);
    expect(await list("to=2026-11-30")).toEqual([ids.otherEn, ids.studioNl, ids.visaFa]);
    expect(await list("stage=new&language=en&from=2026-11-15")).toEqual([ids.lateNight, ids.otherEn]);
  });

  test("a wrong filter is a 400 that says what is allowed", async () => {
    for (const [query, message] of [
      ["stage=done", "stage must be new, replied, meeting, proposal, client, lost"],
      ["language=de", "language must be en, nl or fa"],
      ["from=2026-13-01", "from must be a date, yyyy-MM-dd"],
      ["from=2026-11-20&to=2026-11-01", "from must not be after to"],
      ["sort=random", "sort must be newest, oldest, follow-up"],
    ]) {
      const res = await call(enquiries, `/api/admin/submissions?${query}`, { cookie });
      expect(res.status, query).toBe(400);
      expect(res.json.message).toBe(message);
    }
  });

  test("meetings: status, language, the meeting's own date range, upcoming and past, and slot order", async () => {
    await t.db.deleteFrom("meetings").execute();
    const meeting = async (date: string, time: string, language: "en" | "fa" = "en") =>
      createMeeting(t.db, {
        ...(await firstConsultantMeeting(t.db)),
        ...(await firstConsultantMeeting(t.db)),
        name: "Sara",
        email: "sara@example.com",
        phone: "+31 6 1111 2222",
        date,
        time,
        language,
      });
    // The test clock is real time: choose dates far enough away either side.
    const past = await meeting("2020-03-02", "10:00");
    const soon = await meeting("2099-01-05", "09:30", "fa");
    const later = await meeting("2099-01-05", "11:00");
    await t.db.updateTable("meetings").set({ isConfirmed: true }).where("id", "=", later.id).execute();
    const list = (query: string) => allPages(`/api/admin/meetings?${query}`);
    expect(await list("when=upcoming&sort=soonest")).toEqual([soon.id, later.id]);
    expect(await list("when=past")).toEqual([past.id]);
    expect(await list("sort=latest&limit=1")).toEqual([later.id, soon.id, past.id]);
    expect(await list("status=confirmed")).toEqual([later.id]);
    expect(await list("status=pending&sort=soonest")).toEqual([past.id, soon.id]);
    expect(await list("language=fa")).toEqual([soon.id]);
    expect(await list("from=2099-01-01&to=2099-01-31&sort=soonest")).toEqual([soon.id, later.id]);
    expect(await list("q=SARA&when=past")).toEqual([past.id]);
    expect((await call(adminMeetings, "/api/admin/meetings?when=soon", { cookie })).status).toBe(400);
  });

  test("the filters in the dashboard's address come back as they were (URL round trip)", () => {
    const filters = {
      q: "علی کریمی",
      stage: "new",
      owner: "me",
      attention: "overdue",
      service: "startup-visa",
      language: "fa",
      from: "2026-11-01",
      to: "2026-11-30",
      sort: "oldest",
    } as const;
    const params = filtersToParams(filters);
    const address = `/admin/leads?${params}`;
    expect(parseEnquiryFilters(new URL(address, ORIGIN).searchParams)).toEqual({ filters, problems: [] });
  });
});

describe("CSV export", () => {
  beforeAll(async () => {
    await t.db.deleteFrom("enquiries").execute();
    await enquiryAt("2026-11-05T08:15:00.000Z", {
      firstName: '=HYPERLINK("http://evil.example","click")',
      lastName: "+31 6 1234 5678",
      email: "-sum@example.com",
      company: '@risk, "quoted" BV',
      message: 'Two lines,\r\nwith a comma and a "quote".',
    });
    await enquiryAt("2026-11-06T08:15:00.000Z", {
      firstName: "مریم",
      lastName: "احمدی",
      email: "maryam@example.ir",
      company: "شرکت پارس",
      service: "startup-visa",
      message: "سلام، می‌خواهم درباره ویزای استارتاپ بپرسم.",
      language: "fa",
    });
  });

  /** The export as a browser receives it: Response.text() would drop the byte-order mark, so decode the bytes as they are. */
  async function download(query = "", list = "submissions", who = cookie) {
    const req = new Request(new URL(`/api/admin/export/${list}${query}`, ORIGIN), { headers: { cookie: who } });
    const res = await adminExport(req, { params: {} } as never);
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await res.arrayBuffer());
    return { status: res.status, headers: res.headers, text };
  }

  test("is a UTF-8 CSV with a BOM and CRLF, named after the list and the day, Persian intact", async () => {
    const res = await download();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="enquiries-\d{4}-\d\d-\d\d\.csv"$/);
    expect(res.text.startsWith("\uFEFF")).toBe(true);
    expect(res.text.split("\r\n")[0]).toBe(
      "\uFEFFReference,Received (office time),First name,Last name,Email,Company,Service,Language,Message,Stage,Replied on,Emails,Note,Note by,Note on",
    );
    const rows = parseCsv(res.text, { bom: true, columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      "First name": "مریم",
      "Last name": "احمدی",
      Company: "شرکت پارس",
      Service: "Startup Visa",
      Language: "Persian",
      Message: "سلام، می‌خواهم درباره ویزای استارتاپ بپرسم.",
      Stage: "new",
      "Received (office time)": "2026-11-06 09:15",
    });
  });

  test("cells that a spreadsheet would run as a formula are made inert; quotes and line breaks survive", async () => {
    const rows = parseCsv((await download()).text, { bom: true, columns: true }) as Record<string, string>[];
    const hostile = rows[1];
    expect(hostile["First name"]).toBe('\'=HYPERLINK("http://evil.example","click")');
    expect(hostile["Last name"]).toBe("'+31 6 1234 5678");
    expect(hostile.Email).toBe("'-sum@example.com");
    expect(hostile.Company).toBe('\'@risk, "quoted" BV');
    expect(hostile.Message).toBe('Two lines,\r\nwith a comma and a "quote".');
    for (const row of rows) for (const cell of Object.values(row)) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  test("exports the current filter only; a wrong filter is a 400; a session is needed", async () => {
    const fa = await download("?language=fa");
    expect(fa.headers.get("content-disposition")).toMatch(/filename="enquiries-filtered-/);
    expect(parseCsv(fa.text, { bom: true, columns: true })).toHaveLength(1);
    expect((await download("?stage=nope")).status).toBe(400);
    expect((await download("", "submissions", "")).status).toBe(401);
  });

  test("meetings export too, and more rows than one batch arrive whole", async () => {
    const res = await download("", "meetings");
    expect(res.status).toBe(200);
    expect(res.text.split("\r\n")[0]).toMatch(/^\uFEFFReference,Date,Time,Name,Email,Phone,/);
    await sql`INSERT INTO enquiries (first_name, last_name, email, service, message)
      SELECT 'Bulk', 'Row ' || n, 'bulk' || n || '@example.com', 'other', 'A message long enough.'
      FROM generate_series(1, 1203) AS n`.execute(t.db);
    const rows = parseCsv((await download("?q=bulk")).text, { bom: true, columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(1203);
    expect(new Set(rows.map((r) => r.Reference)).size).toBe(1203);
  });
});

describe("notes", () => {
  const post = (path: string, body: unknown, who = cookie, headers: Record<string, string> = {}) =>
    call(notes, path, { method: "POST", body, cookie: who, headers });

  test("an admin adds a note from the card; the card's record carries the newest with its author and time", async () => {
    const e = await createEnquiry(t.db, enquiry({ lastName: "Noted" }));
    const res = await post(`/api/admin/submissions/${e.id}/note`, { note: "  Called back, wants a quote.  " });
    expect(res.status).toBe(201);
    expect(res.json.note).toEqual({
      id: expect.any(String),
      text: "Called back, wants a quote.",
      by: "maryam",
      at: expect.any(String),
    });
    expect(Date.now() - Date.parse(res.json.note.at)).toBeLessThan(60_000);
    const listed = (await search("noted"))[0];
    expect(listed.note).toEqual(res.json.note);
    // Another admin adds one: the card shows the newest, the first one stays.
    const added = await post(`/api/admin/submissions/${e.id}/note`, { note: "Quote sent." }, otherCookie);
    expect(added.json.note).toMatchObject({ text: "Quote sent.", by: "joost" });
    const kept = await t.db
      .selectFrom("leadNotes")
      .select("body")
      .where("enquiryId", "=", e.id)
      .orderBy("id")
      .execute();
    expect(kept.map((r) => r.body)).toEqual(["Called back, wants a quote.", "Quote sent."]);
    // An empty note is refused, not taken as a removal.
    expect((await post(`/api/admin/submissions/${e.id}/note`, { note: "  " })).status).toBe(400);
  });

  test("meetings take notes too", async () => {
    const m = await createMeeting(t.db, {
      ...(await firstConsultantMeeting(t.db)),
      name: "Noor",
      email: "noor@example.com",
      phone: "+31 6 2222 3333",
      date: "2099-02-02",
      time: "10:00",
    });
    const res = await post(`/api/admin/meetings/${m.id}/note`, { note: "Bring the pitch deck." });
    expect(res.json).toMatchObject({ id: m.id, note: { text: "Bring the pitch deck.", by: "maryam" } });
    const listed = (await call(adminMeetings, "/api/admin/meetings?q=noor", { cookie })).json as AdminMeeting[];
    expect(listed[0].note?.text).toBe("Bring the pitch deck.");
  });

  test(`at most ${NOTE_MAX_LENGTH} characters; a session, the site's origin and a real record are needed`, async () => {
    const e = await createEnquiry(t.db, enquiry());
    const path = `/api/admin/submissions/${e.id}/note`;
    const long = await post(path, { note: "x".repeat(NOTE_MAX_LENGTH + 1) });
    expect(long.status).toBe(400);
    expect(long.json.message).toBe(`note must be at most ${NOTE_MAX_LENGTH} characters`);
    expect((await post(path, { note: "x".repeat(NOTE_MAX_LENGTH) })).status).toBe(201);
    expect((await post(path, { note: 42 })).status).toBe(400);
    expect((await post(path, { note: "hi" }, "")).status).toBe(401);
    expect((await post(path, { note: "hi" }, cookie, { origin: "https://evil.example" })).status).toBe(403);
    expect((await post("/api/admin/submissions/99999999/note", { note: "hi" })).status).toBe(404);
    expect((await post("/api/admin/meetings/abc/note", { note: "hi" })).status).toBe(404);
    expect((await call(notes, path, { cookie })).status).toBe(405);
  });
});

describe("GET /api/admin/stats", () => {
  test("counts this week's enquiries, the pending ones, the next 7 days' meetings and the on-time share", async () => {
    await t.db.deleteFrom("enquiries").execute();
    await t.db.deleteFrom("meetings").execute();
    const now = new Date();
    const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();
    // Answered within the hour: on time. Answered after 20 days: late. Pending for 20 days: late.
    // Pending since a minute ago: not known yet, not counted.
    const onTime = await enquiryAt(daysAgo(10));
    await t.db
      .updateTable("enquiries")
      .set({ stage: "replied", repliedAt: daysAgo(9.95) })
      .where("id", "=", onTime.id)
      .execute();
    const late = await enquiryAt(daysAgo(25));
    await t.db
      .updateTable("enquiries")
      .set({ stage: "replied", repliedAt: daysAgo(5) })
      .where("id", "=", late.id)
      .execute();
    await enquiryAt(daysAgo(20));
    await createEnquiry(t.db, enquiry());
    // Older than the 30-day window: counts as pending, not in the share.
    await enquiryAt(daysAgo(60));
    await createMeeting(t.db, {
      ...(await firstConsultantMeeting(t.db)),
      name: "Soon",
      email: "s@example.com",
      phone: "+31 6 1",
      date: "2099-01-01",
      time: "09:00",
    });

    const res = await call(stats, "/api/admin/stats", { cookie });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ pending: 3, processedOnTimeOf: 3, windowDays: 30, meetingsNext7Days: 0 });
    expect(res.json.processedOnTime).toBeCloseTo(1 / 3);
    expect(res.json.newThisWeek).toBeGreaterThanOrEqual(1);
    expect((await call(stats, "/api/admin/stats")).status).toBe(401);
  });
});

describe("email status column", () => {
  test("follows the outbox: pending, then sent, then failing", async () => {
    const e = await createEnquiry(t.db, enquiry({ lastName: "Mailed" }));
    const status = async () =>
      (await t.db.selectFrom("enquiries").select("emailStatus").where("id", "=", e.id).executeTakeFirstOrThrow())
        .emailStatus;
    expect(await status()).toBeNull();
    const [a, b] = await enqueue(t.db, [
      { kind: "enquiry.company", enquiryId: e.id, to: "team@example.com", subject: "S", text: "T", html: "H" },
      { kind: "enquiry.ack", enquiryId: e.id, to: "v@example.com", subject: "S", text: "T", html: "H" },
    ]);
    expect(await status()).toBe("pending");
    await t.db.updateTable("emailOutbox").set({ status: "sent" }).where("id", "in", [a, b]).execute();
    expect(await status()).toBe("sent");
    await t.db.updateTable("emailOutbox").set({ status: "failed", attempts: 1 }).where("id", "=", b).execute();
    expect(await status()).toBe("failing");
    await t.db.deleteFrom("emailOutbox").where("id", "in", [a, b]).execute();
    expect(await status()).toBeNull();
  });
});
