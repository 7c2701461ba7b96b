import { type Kysely, sql } from "kysely";

// Frozen in time: consultants (issue 43). A meeting is booked with a person, not with "the office".
//
// - consultants: one per panel account that takes meetings; the id is the team member's id of
//   src/data/team.json (their public profile, languages and services). `hours` are their own weekly
//   hours ([{ weekday, opens, closes }]); NULL: the office's. An inactive consultant (has left, on
//   leave) takes no new meetings but keeps their old ones.
// - office_closures, busy_calendars and meetings_feed gain a consultant: NULL is the whole office
//   (a closure or a calendar that applies to everyone; the feed of all meetings).
// - meetings gain their consultant (NOT NULL) and why it went to them (`assignment`, JSON: chosen
//   by the visitor, or the fair rule with the loads compared; NULL for meetings from before). One
//   booking per slot becomes one per consultant and slot.
// - An install with data: the first admin account (lowest id) becomes the consultant
//   'nasrin-farahani' (the first member of team.json as shipped when this was written) and gets
//   every meeting and connected calendar, so it books as before. Should meetings or calendars exist
//   without any account, a placeholder account 'admin' with an unusable password is made for them
//   (npm run admin:create -- --username admin sets its password). An install without accounts gets
//   its consultant when the first admin account is made (db/users.repository.ts createUser).
// - New installs (no account and no meeting yet) start with 12 hours of notice and changes closed 2
//   hours before the start; an existing install keeps the guardrails it has.

const FIRST_CONSULTANT = "nasrin-farahani";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("consultants")
    .addColumn("id", "text", (c) => c.primaryKey().check(sql`id ~ '^[a-z0-9]+(-[a-z0-9]+)*$' AND length(id) <= 64`))
    .addColumn("user_id", "integer", (c) => c.notNull().unique().references("users.id").onDelete("cascade"))
    .addColumn("active", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("hours", "jsonb", (c) => c.check(sql`hours IS NULL OR jsonb_typeof(hours) = 'array'`))
    .addColumn("created_at", sql`timestamptz(3)`, (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  const { rows: counts } = await sql<{ users: number; meetings: number; calendars: number }>`
    SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM meetings) AS meetings,
           (SELECT count(*)::int FROM busy_calendars) AS calendars`.execute(db);
  const { users, meetings, calendars } = counts[0]!;
  if (users === 0 && meetings === 0) {
    await sql`UPDATE office_settings SET notice_minutes = 720, change_cutoff_minutes = 120
              WHERE notice_minutes = 0 AND change_cutoff_minutes = 0`.execute(db);
  }
  if (users === 0 && (meetings > 0 || calendars > 0)) {
    await sql`INSERT INTO users (username, password, role) VALUES ('admin', '!', 'admin')`.execute(db);
  }
  await sql`
    INSERT INTO consultants (id, user_id)
    SELECT ${FIRST_CONSULTANT}, id FROM users ORDER BY (role = 'admin') DESC, id LIMIT 1`.execute(db);

  await db.schema
    .alterTable("office_closures")
    .addColumn("consultant_id", "text", (c) => c.references("consultants.id").onDelete("cascade"))
    .execute();
  await db.schema
    .alterTable("busy_calendars")
    .addColumn("consultant_id", "text", (c) => c.references("consultants.id").onDelete("cascade"))
    .execute();
  await sql`UPDATE busy_calendars SET consultant_id = (SELECT id FROM consultants)`.execute(db);

  await sql`ALTER TABLE meetings_feed DROP CONSTRAINT meetings_feed_pkey`.execute(db);
  await db.schema.alterTable("meetings_feed").dropColumn("id").execute();
  await db.schema
    .alterTable("meetings_feed")
    .addColumn("consultant_id", "text", (c) => c.references("consultants.id").onDelete("cascade"))
    .execute();
  await sql`CREATE UNIQUE INDEX meetings_feed_owner ON meetings_feed ((coalesce(consultant_id, '')))`.execute(db);

  await db.schema
    .alterTable("meetings")
    .addColumn("consultant_id", "text", (c) => c.references("consultants.id").onDelete("restrict"))
    .addColumn("assignment", "jsonb")
    .execute();
  await sql`UPDATE meetings SET consultant_id = (SELECT id FROM consultants)`.execute(db);
  await sql`ALTER TABLE meetings ALTER COLUMN consultant_id SET NOT NULL`.execute(db);
  await sql`DROP INDEX meetings_slot_unique`.execute(db);
  await sql`CREATE UNIQUE INDEX meetings_slot_unique ON meetings (consultant_id, date, time)
            WHERE cancelled_at IS NULL`.execute(db);
  // The fair rule counts each consultant's recent meetings.
  await sql`CREATE INDEX meetings_consultant_date_idx ON meetings (consultant_id, date)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX meetings_consultant_date_idx`.execute(db);
  await sql`DROP INDEX meetings_slot_unique`.execute(db);
  // Two consultants' meetings at one time cannot both stand in the office's one slot: the later ones are cancelled.
  await sql`
    UPDATE meetings m SET cancelled_at = now(), cancelled_by = 'admin'
    WHERE cancelled_at IS NULL AND EXISTS (
      SELECT 1 FROM meetings o WHERE o.cancelled_at IS NULL AND o.date = m.date AND o.time = m.time AND o.id < m.id)`.execute(
    db,
  );
  await sql`CREATE UNIQUE INDEX meetings_slot_unique ON meetings (date, time) WHERE cancelled_at IS NULL`.execute(db);
  await db.schema.alterTable("meetings").dropColumn("consultant_id").dropColumn("assignment").execute();

  await sql`DELETE FROM meetings_feed WHERE consultant_id IS NOT NULL`.execute(db);
  await sql`DROP INDEX meetings_feed_owner`.execute(db);
  await db.schema.alterTable("meetings_feed").dropColumn("consultant_id").execute();
  await db.schema
    .alterTable("meetings_feed")
    .addColumn("id", "boolean", (c) =>
      c
        .primaryKey()
        .defaultTo(true)
        .check(sql`id`),
    )
    .execute();

  await db.schema.alterTable("busy_calendars").dropColumn("consultant_id").execute();
  await sql`DELETE FROM office_closures WHERE consultant_id IS NOT NULL`.execute(db);
  await db.schema.alterTable("office_closures").dropColumn("consultant_id").execute();
  await db.schema.dropTable("consultants").execute();
}
