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
    const [listed] = await listSubmissions(database.db);

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

    const listed = await listSubmissions(database.db);

    expect(listed.map((s) => s.id)).toEqual([second.id, first.id, third.id]);
    expect(listed[2].createdAt).toBe("2020-01-01T00:00:00.000Z");
  });

  test("is empty when there are no enquiries", async () => {
    expect(await listSubmissions(database.db)).toEqual([]);
  });
});

describe("setProcessed", () => {
  test("marks an enquiry processed, then pending again", async () => {
    const { id } = await createSubmission(database.db, enquiry);

    expect(await setProcessed(database.db, id, true)).toMatchObject({ id, isProcessed: true });
    expect((await listSubmissions(database.db))[0].isProcessed).toBe(true);
    expect(await setProcessed(database.db, id, false)).toMatchObject({ id, isProcessed: false });
  });

  test("answers undefined for an unknown id", async () => {
    expect(await setProcessed(database.db, 987_654, true)).toBeUndefined();
    expect(await setProcessed(database.db, 2 ** 40, true)).toBeUndefined();
    expect(await setProcessed(database.db, -1, true)).toBeUndefined();
  });
});
