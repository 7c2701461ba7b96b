import { sql } from "kysely";
import { beforeEach, describe, expect, test } from "vitest";
import { createEnquiry, getAdminEnquiry, listEnquiries } from "./enquiries.repository.ts";
import { addNote } from "./notes.repository.ts";
import { changeLead } from "./leads.repository.ts";
import { UnknownLanguageError } from "#shared/languages.ts";
import { useTestDatabase } from "./testing.ts";

const database = useTestDatabase();
beforeEach(async () => {
  await database.db.deleteFrom("enquiries").execute();
});

/** An admin account to make changes as. */
const anAdmin = async () =>
  database.db
    .insertInto("users")
    .values({ username: `admin-${Math.random().toString(36).slice(2)}`, password: "x", role: "admin" })
    .returning(["id", "username"])
    .executeTakeFirstOrThrow();

const enquiry = {
  firstName: "Ada",
  lastName: "Lovelace",
  email: "ada@example.com",
  service: "startup-visa",
  message: "We would like to open an office in Amsterdam.",
};

describe("createEnquiry", () => {
  test("stores an enquiry and returns it as the admin API shows it", async () => {
    const created = await createEnquiry(database.db, { ...enquiry, company: "Analytical Engines" });

    expect(created).toEqual({
      id: expect.any(Number),
      ...enquiry,
      company: "Analytical Engines",
      language: "en",
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      stage: "new",
    });
    expect(Math.abs(Date.parse(created.createdAt) - Date.now())).toBeLessThan(60_000);
  });

  test("stores a missing or empty company as null", async () => {
    expect((await createEnquiry(database.db, enquiry)).company).toBeNull();
    expect((await createEnquiry(database.db, { ...enquiry, company: "" })).company).toBeNull();
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
    const created = await createEnquiry(database.db, persian);
    const [listed] = (await listEnquiries(database.db)).items;

    expect(created).toMatchObject(persian);
    expect(listed).toMatchObject(persian);
  });
});

describe("listEnquiries", () => {
  test("lists enquiries newest first", async () => {
    const first = await createEnquiry(database.db, { ...enquiry, firstName: "First" });
    const second = await createEnquiry(database.db, { ...enquiry, firstName: "Second" });
    const third = await createEnquiry(database.db, { ...enquiry, firstName: "Third" });
    // Backdate the latest insert: order follows createdAt, not insertion or id.
    await sql`UPDATE enquiries SET created_at = '2020-01-01T00:00:00Z' WHERE id = ${third.id}`.execute(database.db);

    const listed = (await listEnquiries(database.db)).items;

    expect(listed.map((s) => s.id)).toEqual([second.id, first.id, third.id]);
    expect(listed[2].createdAt).toBe("2020-01-01T00:00:00.000Z");
  });

  test("a stored language that is not one of the site's fails loudly instead of reaching the emails as English", async () => {
    const { id } = await createEnquiry(database.db, enquiry);
    await sql`UPDATE enquiries SET language = 'zz' WHERE id = ${id}`.execute(database.db);

    await expect(listEnquiries(database.db)).rejects.toThrow(UnknownLanguageError);
    await expect(listEnquiries(database.db)).rejects.toThrow(`enquiries #${id}`);
  });

  test("shows every field as the API shapes it, whatever the text holds", async () => {
    const text = 'A "quote", a \\ backslash, a new\nline, a\ttab, \u0001, </script>, «سلام» with a \u200c joiner, 🚀';
    const created = await createEnquiry(database.db, { ...enquiry, company: text, message: text, language: "fa" });
    const actor = await anAdmin();
    await changeLead(database.db, created.id, { version: 0, stage: "replied", ownerId: actor.id }, actor);
    await addNote(database.db, { kind: "enquiry", id: created.id }, text, actor);
    const noted = await getAdminEnquiry(database.db, created.id);
    const { rows } = await sql<{ replied: Date; changed: Date; noted: Date }>`
      SELECT replied_at AS replied, stage_changed_at AS changed,
        (SELECT updated_at FROM lead_notes WHERE enquiry_id = e.id) AS noted FROM enquiries e WHERE id = ${created.id}`.execute(
      database.db,
    );

    const expected = {
      ...created,
      reference: `E-${String(created.id).padStart(5, "0")}`,
      stage: "replied",
      emailStatus: null,
      repliedAt: rows[0].replied.toISOString(),
      stageChangedAt: rows[0].changed.toISOString(),
      ownerId: actor.id,
      lostReasonId: null,
      clientService: null,
      clientValueCents: null,
      followUpOn: null,
      version: 1,
      note: { id: expect.any(String), text, by: actor.username, at: rows[0].noted.toISOString() },
      source: null,
    };
    expect((await listEnquiries(database.db)).items).toEqual([expected]);
    expect(noted).toEqual(expected);
  });

  test("is empty when there are no enquiries", async () => {
    expect((await listEnquiries(database.db)).items).toEqual([]);
  });
});

describe("listEnquiries, a page at a time", () => {
  test("walks every enquiry exactly once, newest first, whatever the page size", async () => {
    // Several share one created_at (a burst in one millisecond): the id breaks the tie.
    const burst = "2026-11-20T10:00:00.000Z";
    for (let i = 0; i < 23; i++) {
      const { id } = await createEnquiry(database.db, { ...enquiry, lastName: `Lovelace ${i}` });
      if (i % 3 === 0) await sql`UPDATE enquiries SET created_at = ${burst} WHERE id = ${id}`.execute(database.db);
    }
    const all = (await listEnquiries(database.db, { limit: 200 })).items.map((s) => s.id);
    expect(all).toHaveLength(23);

    for (const limit of [1, 5, 22, 23]) {
      const seen: number[] = [];
      let cursor: string | null = null;
      do {
        const page = await listEnquiries(database.db, { limit, cursor });
        expect(page.items.length).toBeLessThanOrEqual(limit);
        seen.push(...page.items.map((s) => s.id));
        cursor = page.next;
      } while (cursor);
      expect(seen, `limit ${limit}`).toEqual(all);
    }
  });

  test("an enquiry arriving while the admin pages does not shift the next page", async () => {
    for (let i = 0; i < 4; i++) await createEnquiry(database.db, { ...enquiry, lastName: `Lovelace ${i}` });
    const first = await listEnquiries(database.db, { limit: 2 });
    await createEnquiry(database.db, { ...enquiry, lastName: "Newcomer" });
    const second = await listEnquiries(database.db, { limit: 2, cursor: first.next });
    expect(second.items.map((s) => s.lastName)).toEqual(["Lovelace 1", "Lovelace 0"]);
    expect(second.next).toBeNull();
  });
});
