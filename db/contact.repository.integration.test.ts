import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { createSubmission, listSubmissions, setProcessed } from "./contact.repository.ts";
import { createTestDatabase, type TestDatabase } from "./testing.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
}, 60_000);
afterAll(() => database?.destroy());
beforeEach(async () => {
  await database.db.deleteFrom("contactSubmissions").execute();
});

const enquiry = {
  firstName: "Ada",
  lastName: "Lovelace",
  email: "ada@example.com",
  service: "startup-visa",
  message: "We would like to open an office in Amsterdam.",
};

describe("createSubmission", () => {
  test("stores an enquiry and returns it as the admin API shows it", async () => {
    const created = await createSubmission(database.db, { ...enquiry, company: "Analytical Engines" });

    expect(created).toEqual({
      id: expect.any(Number),
      ...enquiry,
      company: "Analytical Engines",
      language: "en",
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      isProcessed: false,
    });
    expect(Math.abs(Date.parse(created.createdAt) - Date.now())).toBeLessThan(60_000);
  });

  test("stores a missing or empty company as null", async () => {
    expect((await createSubmission(database.db, enquiry)).company).toBeNull();
    expect((await createSubmission(database.db, { ...enquiry, company: "" })).company).toBeNull();
  });

  test("keeps Persian (right-to-left) text, emoji and joiners intact", async () => {
    const persian = {
      firstName: "سارا",
      lastName: "محمدی‌نژاد", // with a zero-width non-joiner
      email: "sara@example.ir",
      company: "شرکت «نوآوران» ۱۴۰۳",
      service: "business-launchpad",
      message: "می‌خواهیم کسب‌وکارمان را به اروپا گسترش دهیم 🚀\nسپاس!",
    };
    const created = await createSubmission(database.db, persian);
    const [listed] = (await listSubmissions(database.db)).items;

    expect(created).toMatchObject(persian);
    expect(listed).toMatchObject(persian);
  });
});

describe("listSubmissions", () => {
  test("lists enquiries newest first", async () => {
    const first = await createSubmission(database.db, { ...enquiry, firstName: "First" });
    const second = await createSubmission(database.db, { ...enquiry, firstName: "Second" });
    const third = await createSubmission(database.db, { ...enquiry, firstName: "Third" });
    // Backdate the latest insert: order follows createdAt, not insertion or id.
    await sql`UPDATE contact_submissions SET created_at = '2020-01-01T00:00:00Z' WHERE id = ${third.id}`.execute(
      database.db,
    );

    const listed = (await listSubmissions(database.db)).items;

    expect(listed.map((s) => s.id)).toEqual([second.id, first.id, third.id]);
    expect(listed[2].createdAt).toBe("2020-01-01T00:00:00.000Z");
  });

  test("is empty when there are no enquiries", async () => {
    expect((await listSubmissions(database.db)).items).toEqual([]);
  });
});

describe("setProcessed", () => {
  test("marks an enquiry processed, then pending again", async () => {
    const { id } = await createSubmission(database.db, enquiry);

    expect(await setProcessed(database.db, id, true)).toMatchObject({ id, isProcessed: true });
    expect((await listSubmissions(database.db)).items[0].isProcessed).toBe(true);
    expect(await setProcessed(database.db, id, false)).toMatchObject({ id, isProcessed: false });
  });

  test("answers undefined for an unknown id", async () => {
    expect(await setProcessed(database.db, 987_654, true)).toBeUndefined();
    expect(await setProcessed(database.db, 2 ** 40, true)).toBeUndefined();
    expect(await setProcessed(database.db, -1, true)).toBeUndefined();
  });
});

describe("listSubmissions, a page at a time", () => {
  test("walks every enquiry exactly once, newest first, whatever the page size", async () => {
    // Several share one created_at (a burst in one millisecond): the id breaks the tie.
    const burst = "2026-11-20T10:00:00.000Z";
    for (let i = 0; i < 23; i++) {
      const { id } = await createSubmission(database.db, { ...enquiry, lastName: `Lovelace ${i}` });
      if (i % 3 === 0)
        await sql`UPDATE contact_submissions SET created_at = ${burst} WHERE id = ${id}`.execute(database.db);
    }
    const all = (await listSubmissions(database.db, { limit: 200 })).items.map((s) => s.id);
    expect(all).toHaveLength(23);

    for (const limit of [1, 5, 22, 23]) {
      const seen: number[] = [];
      let cursor: string | null = null;
      do {
        const page = await listSubmissions(database.db, { limit, cursor });
        expect(page.items.length).toBeLessThanOrEqual(limit);
        seen.push(...page.items.map((s) => s.id));
        cursor = page.next;
      } while (cursor);
      expect(seen, `limit ${limit}`).toEqual(all);
    }
  });

  test("an enquiry arriving while the admin pages does not shift the next page", async () => {
    for (let i = 0; i < 4; i++) await createSubmission(database.db, { ...enquiry, lastName: `Lovelace ${i}` });
    const first = await listSubmissions(database.db, { limit: 2 });
    await createSubmission(database.db, { ...enquiry, lastName: "Newcomer" });
    const second = await listSubmissions(database.db, { limit: 2, cursor: first.next });
    expect(second.items.map((s) => s.lastName)).toEqual(["Lovelace 1", "Lovelace 0"]);
    expect(second.next).toBeNull();
  });
});
