import { type Kysely, sql } from "kysely";

// Frozen in time: the lead desk's conversation with a lead.
// - lead_messages: every reply the staff send from the panel (direction 'out', written with its
//   outbox row) and every answer of the lead that comes back through the inbound route (direction
//   'in'). Text only: attachments of an answer are not kept. Deleted with its enquiry; an erasure
//   deletes them too (db/privacy.repository.ts anonymise).
//   An answer is stored once per Message-ID and enquiry (a mail service that posts twice stores one).
// - email_outbox.in_reply_to: the Message-ID a message answers (sent as In-Reply-To and References),
//   so a reply threads under the acknowledgement in the lead's mailbox.
// - inbound_tokens: the signature tokens of inbound posts already taken, so a captured post cannot
//   be replayed; kept a day (the freshness window is much shorter).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("lead_messages")
    .addColumn("id", "bigint", (col) => col.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("enquiry_id", "integer", (col) => col.notNull().references("enquiries.id").onDelete("cascade"))
    .addColumn("direction", "text", (col) => col.notNull().check(sql`direction IN ('out', 'in')`))
    .addColumn("from_address", "text", (col) => col.notNull())
    .addColumn("to_address", "text", (col) => col.notNull())
    .addColumn("subject", "text", (col) => col.notNull())
    .addColumn("text_body", "text", (col) => col.notNull())
    .addColumn("message_id", "text")
    .addColumn("in_reply_to", "text")
    .addColumn("sent_by", "text")
    .addColumn("outbox_id", "bigint")
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`CREATE INDEX lead_messages_enquiry ON lead_messages (enquiry_id, created_at, id)`.execute(db);
  await sql`CREATE INDEX lead_messages_message_id ON lead_messages (message_id) WHERE message_id IS NOT NULL`.execute(
    db,
  );
  await sql`CREATE UNIQUE INDEX lead_messages_inbound_once ON lead_messages (enquiry_id, message_id)
    WHERE direction = 'in' AND message_id IS NOT NULL`.execute(db);

  await db.schema.alterTable("email_outbox").addColumn("in_reply_to", "text").execute();

  await db.schema
    .createTable("inbound_tokens")
    .addColumn("token", "text", (col) => col.primaryKey())
    .addColumn("seen_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("inbound_tokens").execute();
  await db.schema.alterTable("email_outbox").dropColumn("in_reply_to").execute();
  await db.schema.dropTable("lead_messages").execute();
}
