import { sql } from "kysely";
import { describe, expect, test } from "vitest";
import { migrateDown, migrateToLatest } from "./migrate.ts";
import { migrations } from "./migrations/index.ts";
import { bookingAsBefore, useTestDatabase } from "./testing.ts";
import { createUser } from "./users.repository.ts";

const database = useTestDatabase();

const APP_TABLES = [
  "admin_sessions",
  "audit_log",
  "auth_challenges",
  "busy_calendars",
  "busy_intervals",
  "consultants",
  "email_outbox",
  "enquiries",
  "inbound_tokens",
  "invitations",
  "lead_digests",
  "lead_events",
  "lead_messages",
  "lead_notes",
  "login_attempts",
  "lost_reasons",
  "meeting_changes",
  "meetings",
  "meetings_feed",
  "newsletter_subscribers",
  "office_closures",
  "office_hours",
  "office_settings",
  "page_view_days",
  "page_view_keys",
  "page_views",
  "passkeys",
  "rate_counters",
  "recovery_codes",
  "users",
];

/** Removes the meetings, calendars, closures, feeds and accounts earlier tests left (each table that exists now). */
async function clearPeople(): Promise<void> {
  const present = await tables();
  for (const table of [
    "email_outbox",
    "lead_notes",
    "meetings",
    "busy_calendars",
    "office_closures",
    "meetings_feed",
    "lead_digests",
    "users",
  ])
    if (present.includes(table)) await sql`DELETE FROM ${sql.table(table)}`.execute(database.db);
}

async function tables(): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    SELECT table_name AS name FROM information_schema.tables
    WHERE table_schema = 'public' AND table_name NOT LIKE 'kysely_%' ORDER BY table_name`.execute(database.db);
  return rows.map((r) => r.name);
}

async function indexes(): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    SELECT indexname AS name FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexname`.execute(database.db);
  return rows.map((r) => r.name);
}

describe("migrations", () => {
  test("create every table with its indexes and constraints", async () => {
    expect(await tables()).toEqual(APP_TABLES);
    expect(await indexes()).toEqual(
      expect.arrayContaining([
        "email_outbox_enquiry_id_idx",
        "email_outbox_status_next_attempt_at_idx",
        "enquiries_created_at_id_idx",
        "enquiries_pkey",
        "login_attempts_key_attempted_at_idx",
        "meetings_created_at_id_idx",
        "meetings_reminder_due_idx",
        "meetings_slot_unique",
        "newsletter_subscribers_email_unique",
        "rate_counters_expires_at_idx",
        "rate_counters_pkey",
        "meetings_pending_email_idx",
        "users_username_key",
        "busy_intervals_range",
        "busy_calendars_url_key",
        "meetings_feed_owner",
        "consultants_pkey",
        "meetings_consultant_date_idx",
        "page_view_keys_pkey",
        "invitations_token_hash_key",
        "enquiries_stage_created_at_id_idx",
        "enquiries_owner_created_at_id_idx",
        "enquiries_follow_up_on_id_idx",
        "lead_events_enquiry_id_at_idx",
        "lead_notes_email_idx",
        "lead_notes_enquiry_id_idx",
        "lead_notes_meeting_id_idx",
        "meeting_changes_meeting_id_at_idx",
        "lead_digests_pkey",
      ]),
    );
  });

  test("are already applied: migrating again does nothing", async () => {
    expect(await migrateToLatest(database.db)).toEqual([]);
  });

  test("go down one at a time, leaving no table behind, and up again", async () => {
    const names = Object.keys(migrations);

    for (const name of [...names].reverse()) expect(await migrateDown(database.db)).toEqual([name]);
    expect(await tables()).toEqual([]);
    expect(await migrateDown(database.db)).toEqual([]);

    expect(await migrateToLatest(database.db)).toEqual(names);
    expect(await tables()).toEqual(APP_TABLES);
  });
});

describe("the lead notes migration", () => {
  test("lead notes: each record's one note becomes a note under its person's lower-cased address, and back", async () => {
    const later = Object.keys(migrations).slice(Object.keys(migrations).indexOf("2026-11-29T11-00_lead-notes"));
    for (let i = 0; i < later.length; i++) await migrateDown(database.db);
    const { rows: users } = await sql<{ id: number }>`
      INSERT INTO users (username, password, role) VALUES ('noter', 'x', 'admin') RETURNING id`.execute(database.db);
    const { rows: enquiries } = await sql<{ id: number }>`
      INSERT INTO enquiries (first_name, last_name, email, service, message, note, note_by, note_at)
      VALUES ('Ada', 'L', 'Ada@Example.COM', 'other', 'Hi', 'Call her back', 'noter', '2026-11-20T10:00:00Z'),
             ('Bo', 'K', 'bo@example.com', 'other', 'Hi', NULL, NULL, NULL)
      RETURNING id`.execute(database.db);
    const { rows: meetings } = await sql<{ id: number }>`
      INSERT INTO meetings (name, email, phone, date, time, note, note_by, note_at)
      VALUES ('Ada L', 'ada@example.com', '+31 6', '2026-12-01', '10:00', 'Bring the deck', 'gone-admin', NULL)
      RETURNING id`.execute(database.db);
    expect(await migrateToLatest(database.db)).toEqual(later);
    const notes = await database.db
      .selectFrom("leadNotes")
      .select(["email", "enquiryId", "meetingId", "authorId", "authorUsername", "body"])
      .orderBy("id")
      .execute();
    expect(notes).toEqual([
      {
        email: "ada@example.com",
        enquiryId: enquiries[0].id,
        meetingId: null,
        authorId: users[0].id,
        authorUsername: "noter",
        body: "Call her back",
      },
      {
        email: "ada@example.com",
        enquiryId: null,
        meetingId: meetings[0].id,
        authorId: null,
        authorUsername: "gone-admin",
        body: "Bring the deck",
      },
    ]);
    // Down to before the lead notes again (the later migrations first).
    for (let i = 0; i < later.length; i++) await migrateDown(database.db);
    const { rows: back } = await sql<{ note: string | null; noteBy: string | null }>`
      SELECT note, note_by FROM enquiries ORDER BY id`.execute(database.db);
    expect(back).toEqual([
      { note: "Call her back", noteBy: "noter" },
      { note: null, noteBy: null },
    ]);
    await migrateToLatest(database.db);
    await sql`DELETE FROM lead_notes`.execute(database.db);
    await sql`DELETE FROM meetings`.execute(database.db);
    await sql`DELETE FROM enquiries`.execute(database.db);
    await sql`DELETE FROM users`.execute(database.db);
  });
});

describe("the data migrations of earlier rounds", () => {
  test("view keys: the daily counts already rolled up are folded by each chart's dimension", async () => {
    const later = Object.keys(migrations).slice(Object.keys(migrations).indexOf("2026-11-28T02-00_view-keys"));
    for (let i = 0; i < later.length; i++) await migrateDown(database.db);
    const row = { path: "/fa/", lang: "fa", referrer: "t.me", utmMedium: "", device: "phone", country: "IR" };
    await database.db
      .insertInto("pageViewDays")
      .values([
        { ...row, day: "2026-11-20", utmSource: "telegram", utmCampaign: "launch", views: 5, visits: 3 },
        { ...row, day: "2026-11-20", utmSource: "", utmCampaign: "", views: 2, visits: 1 },
      ])
      .execute();
    expect(await migrateToLatest(database.db)).toEqual(later);
    const keys = await database.db
      .selectFrom("pageViewKeys")
      .select(["dim", "key", "views", "visits"])
      .orderBy("dim")
      .orderBy("key")
      .execute();
    expect(keys).toEqual([
      { dim: "all", key: "", views: 7, visits: 4 },
      { dim: "campaign", key: "", views: 2, visits: 1 },
      { dim: "campaign", key: "launch", views: 5, visits: 3 },
      { dim: "lang", key: "fa", views: 7, visits: 4 },
      { dim: "path", key: "/fa/", views: 7, visits: 4 },
      { dim: "referrer", key: "t.me", views: 7, visits: 4 },
      { dim: "source", key: "t.me", views: 2, visits: 1 },
      { dim: "source", key: "telegram", views: 5, visits: 3 },
    ]);
    await sql`DELETE FROM page_view_keys`.execute(database.db);
    await sql`DELETE FROM page_view_days`.execute(database.db);
  });

  test("notifications: records from before it speak English and start their invites at sequence 0", async () => {
    const later = Object.keys(migrations).slice(Object.keys(migrations).indexOf("2026-11-22T00-00_notifications"));
    for (let i = 0; i < later.length; i++) await migrateDown(database.db);
    await sql`INSERT INTO contact_submissions (first_name, last_name, email, service, message) VALUES ('Ada', 'Lovelace', 'ada@example.com', 'other', 'An older enquiry.')`.execute(
      database.db,
    );
    await sql`INSERT INTO meetings (name, email, phone, date, time) VALUES ('Ada', 'ada@example.com', '+31 20 123 4567', '2026-12-01', '10:00')`.execute(
      database.db,
    );

    expect(await migrateToLatest(database.db)).toEqual(later);

    const {
      rows: [submission],
    } = await sql<{ language: string }>`SELECT language FROM enquiries`.execute(database.db);
    const {
      rows: [meeting],
    } = await sql<{
      language: string;
      invite_sequence: number;
    }>`SELECT language, invite_sequence FROM meetings`.execute(database.db.withoutPlugins());
    expect(submission.language).toBe("en");
    expect(meeting).toEqual({ language: "en", invite_sequence: 0 });
  });

  test("enquiries: the contact_submissions rows, their ids and their emails keep going under the new name", async () => {
    const later = Object.keys(migrations).slice(Object.keys(migrations).indexOf("2026-11-22T23-45_enquiries"));
    for (let i = 0; i < later.length; i++) await migrateDown(database.db);
    expect(await tables()).toContain("contact_submissions");
    const {
      rows: [old],
    } = await sql<{ id: number }>`
      INSERT INTO contact_submissions (first_name, last_name, email, service, message)
      VALUES ('Grace', 'Hopper', 'grace@example.com', 'startup-visa', 'Renamed, not lost.') RETURNING id`.execute(
      database.db,
    );
    await sql`INSERT INTO email_outbox (kind, submission_id, to_address, subject, text_body, html_body)
      VALUES ('enquiry.company', ${old.id}, 'team@example.com', 'S', 'T', 'H')`.execute(database.db);

    expect(await migrateToLatest(database.db)).toEqual(later);

    const plain = database.db.withoutPlugins();
    const { rows: linked } = await sql<{ id: number; first_name: string; kind: string }>`
      SELECT e.id, e.first_name, o.kind FROM enquiries e JOIN email_outbox o ON o.enquiry_id = e.id`.execute(plain);
    expect(linked).toContainEqual({ id: old.id, first_name: "Grace", kind: "enquiry.company" });
    // admin-pipeline summarised the emails of the rows it found: one waiting message is "pending".
    const { rows: summary } = await sql`SELECT email_status FROM enquiries WHERE id = ${old.id}`.execute(plain);
    expect(summary).toEqual([{ email_status: "pending" }]);
    // The id sequence carries on after the old rows.
    const {
      rows: [next],
    } = await sql<{ id: number }>`
      INSERT INTO enquiries (first_name, last_name, email, service, message)
      VALUES ('Ada', 'Lovelace', 'ada@example.com', 'other', 'A new one.') RETURNING id`.execute(plain);
    expect(next.id).toBeGreaterThan(old.id);
    // Deleting an enquiry still deletes its emails (the foreign key moved with the column).
    await sql`DELETE FROM enquiries WHERE id = ${old.id}`.execute(plain);
    const { rows: left } = await sql`SELECT 1 FROM email_outbox WHERE enquiry_id = ${old.id}`.execute(plain);
    expect(left).toEqual([]);
  });

  test("privacy: older subscribers have no consent on record, so they are pending; processed enquiries start their clock", async () => {
    const later = Object.keys(migrations).slice(Object.keys(migrations).indexOf("2026-11-23T02-00_privacy"));
    for (let i = 0; i < later.length; i++) await migrateDown(database.db);
    await sql`INSERT INTO newsletter_subscribers (email) VALUES ('old.reader@example.com')`.execute(database.db);
    await sql`INSERT INTO enquiries (first_name, last_name, email, service, message, is_processed, created_at)
      VALUES ('Ada', 'Lovelace', 'ada@example.com', 'other', 'Processed long ago.', true, '2025-01-02T03:04:05Z')`.execute(
      database.db,
    );

    expect(await migrateToLatest(database.db)).toEqual(later);

    const plain = database.db.withoutPlugins();
    const { rows: readers } = await sql`SELECT is_active, confirmed_at FROM newsletter_subscribers
      WHERE email = 'old.reader@example.com'`.execute(plain);
    expect(readers).toEqual([{ is_active: false, confirmed_at: null }]);
    // Later a lead: processed is "replied", and the time it was processed is when it was answered.
    const { rows: processed } = await sql<{ replied_at: Date; stage: string }>`SELECT replied_at, stage FROM enquiries
      WHERE message = 'Processed long ago.'`.execute(plain);
    expect(processed[0].replied_at.toISOString()).toBe("2025-01-02T03:04:05.000Z");
    expect(processed[0].stage).toBe("replied");
  });

  test("meeting lifecycle: a cancelled meeting no longer holds its slot; the slot stays one booking", async () => {
    const plain = database.db.withoutPlugins();
    const consultant = await bookingAsBefore(database.db);
    await sql`INSERT INTO meetings (name, email, phone, date, time, consultant_id) VALUES ('A', 'a@example.com', '123456', '2030-01-07', '10:00', ${consultant})`.execute(
      plain,
    );
    await expect(
      sql`INSERT INTO meetings (name, email, phone, date, time, consultant_id) VALUES ('B', 'b@example.com', '123456', '2030-01-07', '10:00', ${consultant})`.execute(
        plain,
      ),
    ).rejects.toMatchObject({ code: "23505", constraint: "meetings_slot_unique" });
    await sql`UPDATE meetings SET cancelled_at = now(), cancelled_by = 'admin' WHERE date = '2030-01-07'`.execute(
      plain,
    );
    await sql`INSERT INTO meetings (name, email, phone, date, time, consultant_id) VALUES ('B', 'b@example.com', '123456', '2030-01-07', '10:00', ${consultant})`.execute(
      plain,
    );
    const { rows } = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM meetings WHERE date = '2030-01-07'`.execute(plain);
    expect(rows[0].n).toBe(2);
    // The consultant's account (the migration's placeholder for the meetings of earlier tests, or bookingAsBefore's) goes too.
    await clearPeople();
  });

  test("are listed in the order their dated names sort", () => {
    const names = Object.keys(migrations);
    expect(names).toEqual([...names].sort());
  });
});

describe("the door rules migration", () => {
  test("door rules: look-alike usernames are refused by name; login attempts kept in clear are deleted", async () => {
    const name = "2026-11-29T02-00_door-rules";
    const later = Object.keys(migrations).slice(Object.keys(migrations).indexOf(name));
    for (let i = 0; i < later.length; i++) await migrateDown(database.db);
    await sql`INSERT INTO users (username, password) VALUES ('door-x', 'x'), ('DOOR-x', 'x'), ('alone', 'x')`.execute(
      database.db,
    );
    await sql`INSERT INTO login_attempts (key) VALUES ('user:alice'), ('ip:203.0.113.7')`.execute(database.db);
    await expect(migrateToLatest(database.db)).rejects.toThrow(
      /differ only in case: "door-x" and "DOOR-x"\. Remove one of each .* then migrate again/,
    );
    // Nothing changed: the pair is still there, and so is everything else.
    expect((await sql<{ n: number }>`SELECT count(*)::int AS n FROM users`.execute(database.db)).rows[0].n).toBe(3);
    await sql`UPDATE users SET username = 'door-x-2' WHERE username = 'DOOR-x'`.execute(database.db);
    expect(await migrateToLatest(database.db)).toEqual(later);
    expect(await indexes()).toContain("users_username_lower_key");
    expect(
      (await sql<{ n: number }>`SELECT count(*)::int AS n FROM login_attempts`.execute(database.db)).rows[0].n,
    ).toBe(0);
    await sql`DELETE FROM users`.execute(database.db);
  });
});

describe("the lead digests migration", () => {
  test("one digest per owner and office day; an account removed takes its digests with it", async () => {
    const plain = database.db.withoutPlugins();
    const { rows } = await sql<{
      id: number;
    }>`INSERT INTO users (username, password) VALUES ('digest-owner', 'x') RETURNING id`.execute(plain);
    const id = rows[0].id;
    await sql`INSERT INTO lead_digests (owner_id, office_date, leads) VALUES (${id}, '2026-11-25', 2)`.execute(plain);
    await expect(
      sql`INSERT INTO lead_digests (owner_id, office_date, leads) VALUES (${id}, '2026-11-25', 1)`.execute(plain),
    ).rejects.toThrow(/lead_digests_pkey/);
    await expect(
      sql`INSERT INTO lead_digests (owner_id, office_date, leads) VALUES (${id}, '25-11-2026', 1)`.execute(plain),
    ).rejects.toThrow(/lead_digests_office_date_check/);
    await sql`DELETE FROM users WHERE id = ${id}`.execute(plain);
    const { rows: left } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM lead_digests`.execute(plain);
    expect(left[0].n).toBe(0);
  });
});

describe("the lead stages migration", () => {
  test("processed enquiries become replied leads, pending ones new; down gives the old flag back", async () => {
    const name = "2026-11-29T10-00_lead-stages";
    const later = Object.keys(migrations).slice(Object.keys(migrations).indexOf(name));
    for (let i = 0; i < later.length; i++) await migrateDown(database.db);
    const plain = database.db.withoutPlugins();
    await sql`DELETE FROM enquiries`.execute(plain);
    await sql`INSERT INTO enquiries (first_name, last_name, email, service, message, is_processed, processed_at, created_at)
      VALUES ('Ada', 'L', 'ada@example.com', 'other', 'Answered.', true, '2025-01-03T10:00:00Z', '2025-01-02T10:00:00Z'),
             ('Bob', 'M', 'bob@example.com', 'other', 'Waiting.', false, NULL, '2025-01-04T10:00:00Z')`.execute(plain);

    expect(await migrateToLatest(database.db)).toEqual(later);
    const { rows } = await sql<{ message: string; stage: string; replied_at: Date | null; stage_changed_at: Date }>`
      SELECT message, stage, replied_at, stage_changed_at FROM enquiries ORDER BY id`.execute(plain);
    expect(
      rows.map((r) => [r.message, r.stage, r.replied_at?.toISOString() ?? null, r.stage_changed_at.toISOString()]),
    ).toEqual([
      ["Answered.", "replied", "2025-01-03T10:00:00.000Z", "2025-01-03T10:00:00.000Z"],
      ["Waiting.", "new", null, "2025-01-04T10:00:00.000Z"],
    ]);
    // The stage's own rules are the database's: a lost lead names a reason, a client a service.
    await expect(sql`UPDATE enquiries SET stage = 'lost' WHERE message = 'Waiting.'`.execute(plain)).rejects.toThrow(
      /enquiries_lost_reason_check/,
    );
    await expect(sql`UPDATE enquiries SET stage = 'won' WHERE message = 'Waiting.'`.execute(plain)).rejects.toThrow(
      /enquiries_stage_check/,
    );
    const { rows: reasons } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM lost_reasons`.execute(plain);
    expect(reasons[0].n).toBe(4);

    // Down to before the lead stages (the migrations after it first).
    for (let i = 0; i < later.length; i++) await migrateDown(database.db);
    const { rows: back } = await sql<{ is_processed: boolean; processed_at: Date | null }>`
      SELECT is_processed, processed_at FROM enquiries ORDER BY id`.execute(plain);
    expect(back.map((r) => [r.is_processed, r.processed_at?.toISOString() ?? null])).toEqual([
      [true, "2025-01-03T10:00:00.000Z"],
      [false, null],
    ]);
    await migrateToLatest(database.db);
    await sql`DELETE FROM enquiries`.execute(plain);
  });
});

describe("the consultants migration", () => {
  const later = () => Object.keys(migrations).slice(Object.keys(migrations).indexOf("2026-11-29T12-00_consultants"));
  const clear = clearPeople;

  test("an install with data: the first admin becomes the consultant of every meeting and calendar, and keeps its guardrails", async () => {
    for (let i = 0; i < later().length; i++) await migrateDown(database.db);
    await clear();
    const { rows: users } = await sql<{ id: number }>`
      INSERT INTO users (username, password, role) VALUES ('editor', 'x', 'editor'), ('first', 'x', 'admin'),
        ('second', 'x', 'admin') RETURNING id`.execute(database.db);
    await sql`INSERT INTO meetings (name, email, phone, date, time) VALUES
      ('A', 'a@example.com', '123456', '2030-01-07', '10:00'), ('B', 'b@example.com', '123456', '2030-01-08', '11:00')`.execute(
      database.db,
    );
    await sql`INSERT INTO busy_calendars (name, url) VALUES ('Work', 'sealed-url')`.execute(database.db);
    await sql`INSERT INTO office_closures (starts_on, ends_on) VALUES ('2030-02-01', '2030-02-02')`.execute(
      database.db,
    );
    await sql`INSERT INTO meetings_feed (token) VALUES ('sealed-token')`.execute(database.db);
    await sql`UPDATE office_settings SET notice_minutes = 0, change_cutoff_minutes = 0`.execute(database.db);

    expect(await migrateToLatest(database.db)).toEqual(later());

    const consultants = await sql<{ id: string; userId: number; active: boolean; hours: unknown }>`
      SELECT id, user_id, active, hours FROM consultants`.execute(database.db);
    expect(consultants.rows).toEqual([{ id: "nasrin-farahani", userId: users[1]!.id, active: true, hours: null }]);
    const owners = await sql<{ what: string; consultantId: string | null }>`
      SELECT 'meeting' AS what, consultant_id FROM meetings UNION ALL SELECT 'calendar', consultant_id FROM busy_calendars
      UNION ALL SELECT 'closure', consultant_id FROM office_closures UNION ALL SELECT 'feed', consultant_id FROM meetings_feed
      ORDER BY 1`.execute(database.db);
    expect(owners.rows).toEqual([
      { what: "calendar", consultantId: "nasrin-farahani" },
      { what: "closure", consultantId: null },
      { what: "feed", consultantId: null },
      { what: "meeting", consultantId: "nasrin-farahani" },
      { what: "meeting", consultantId: "nasrin-farahani" },
    ]);
    const settings = await sql<{ notice: number; cutoff: number }>`
      SELECT notice_minutes AS notice, change_cutoff_minutes AS cutoff FROM office_settings`.execute(database.db);
    expect(settings.rows).toEqual([{ notice: 0, cutoff: 0 }]);
    await clear();
  });

  test("a new install: 12 hours of notice, changes closed 2 hours before, and its first admin becomes the consultant", async () => {
    for (let i = 0; i < later().length; i++) await migrateDown(database.db);
    await clear();
    await sql`UPDATE office_settings SET notice_minutes = 0, change_cutoff_minutes = 0`.execute(database.db);

    expect(await migrateToLatest(database.db)).toEqual(later());

    const settings = await sql<{ notice: number; cutoff: number }>`
      SELECT notice_minutes AS notice, change_cutoff_minutes AS cutoff FROM office_settings`.execute(database.db);
    expect(settings.rows).toEqual([{ notice: 720, cutoff: 120 }]);
    expect((await sql`SELECT 1 FROM consultants`.execute(database.db)).rows).toEqual([]);
    const editor = await createUser(database.db, "editor", "x", "editor");
    const admin = await createUser(database.db, "first", "x");
    await createUser(database.db, "second", "x");
    const consultants = await sql<{ id: string; userId: number }>`SELECT id, user_id FROM consultants`.execute(
      database.db,
    );
    expect(consultants.rows).toEqual([{ id: "nasrin-farahani", userId: admin.id }]);
    expect(editor.role).toBe("editor");
    await sql`DELETE FROM consultants`.execute(database.db);
    await clear();
  });
});
