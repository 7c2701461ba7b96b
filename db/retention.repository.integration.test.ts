import { sql } from "kysely";
import { beforeEach, describe, expect, test } from "vitest";
import { applyRetention } from "./retention.repository.ts";
import { ANONYMISED_NAME } from "./privacy.repository.ts";
import { bookingAsBefore, useTestDatabase } from "./testing.ts";
import type { RetentionPolicy } from "#server/config.ts";

const database = useTestDatabase();
const policy: RetentionPolicy = { emailDays: 30, loginAttemptDays: 30, recordMonths: 24, newsletterPendingDays: 30 };
const AT = new Date("2026-11-23T12:00:00Z");
const daysBefore = (days: number) => new Date(AT.getTime() - days * 86_400_000);

beforeEach(async () => {
  for (const table of ["emailOutbox", "enquiries", "meetings", "loginAttempts", "newsletterSubscribers"] as const)
    await database.db.deleteFrom(table).execute();
});

const enquiry = (email: string, createdAt: Date, processedAt: Date | null = null) =>
  database.db
    .insertInto("enquiries")
    .values({
      firstName: "Sara",
      lastName: "Rahimi",
      email,
      company: "Arvan",
      service: "startup-visa",
      message: "We want to open an office in Amsterdam.",
      createdAt,
      stage: processedAt !== null ? "replied" : "new",
      repliedAt: processedAt,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
const meeting = async (email: string, date: string, time = "10:00") =>
  database.db
    .insertInto("meetings")
    .values({
      name: "Nima",
      email,
      phone: "+31 6 1234 5678",
      date,
      time,
      consultantId: await bookingAsBefore(database.db),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
const email = (to: string, status: "sent" | "pending" | "dead", sentAt: Date | null, createdAt = sentAt ?? AT) =>
  database.db
    .insertInto("emailOutbox")
    .values({
      kind: "test",
      toAddress: to,
      subject: "Hello",
      textBody: `Dear ${to}`,
      htmlBody: "<p>Hi</p>",
      status,
      sentAt,
      createdAt,
    })
    .returning("id")
    .executeTakeFirstOrThrow();

describe("applyRetention", () => {
  test("removes exactly what is due, and nothing else", async () => {
    // Emails: bodies and addresses go 30 days after sending (or creation, for one given up).
    await email("old@example.com", "sent", daysBefore(31));
    await email("recent@example.com", "sent", daysBefore(29));
    await email("waiting@example.com", "pending", null, daysBefore(40));
    await email("dead@example.com", "dead", null, daysBefore(31));
    // Login attempts: 30 days.
    await database.db
      .insertInto("loginAttempts")
      .values([
        { key: "user:old", attemptedAt: daysBefore(31) },
        { key: "user:recent", attemptedAt: daysBefore(29) },
      ])
      .execute();
    // Enquiries: 24 months after processing; never processed, after receipt.
    const oldProcessed = await enquiry("a@example.com", daysBefore(1000), daysBefore(740));
    const recentlyProcessed = await enquiry("b@example.com", daysBefore(1000), daysBefore(700));
    const oldUnprocessed = await enquiry("c@example.com", daysBefore(740));
    const recent = await enquiry("d@example.com", daysBefore(10));
    // Meetings: 24 months after their day.
    const heldLongAgo = await meeting("m1@example.com", "2024-11-20");
    const heldRecently = await meeting("m2@example.com", "2024-11-24");
    const future = await meeting("m3@example.com", "2026-12-01");
    // Newsletter: unconfirmed and unsubscribed addresses after 30 days; confirmed ones stay.
    await database.db
      .insertInto("newsletterSubscribers")
      .values([
        { email: "pending-old@example.com", consentedAt: daysBefore(31) },
        { email: "pending-new@example.com", consentedAt: daysBefore(29) },
        {
          email: "left-old@example.com",
          consentedAt: daysBefore(400),
          confirmedAt: daysBefore(399),
          unsubscribedAt: daysBefore(31),
        },
        {
          email: "left-new@example.com",
          consentedAt: daysBefore(400),
          confirmedAt: daysBefore(399),
          unsubscribedAt: daysBefore(29),
        },
        { email: "reader@example.com", consentedAt: daysBefore(900), confirmedAt: daysBefore(899), isActive: true },
      ])
      .execute();

    const result = await applyRetention(database.db, policy, AT);

    expect(result).toEqual({
      emailsEmptied: 2,
      loginAttemptsDeleted: 1,
      enquiriesAnonymised: 2,
      meetingsAnonymised: 1,
      newsletterDeleted: 2,
      viewsRolledUp: 0,
      viewDaysDeleted: 0,
    });
    const emails = await database.db
      .selectFrom("emailOutbox")
      .select(["toAddress", "textBody", "status", "subject"])
      .orderBy("id")
      .execute();
    expect(emails).toEqual([
      { toAddress: "", textBody: "", status: "sent", subject: "Hello" },
      { toAddress: "recent@example.com", textBody: "Dear recent@example.com", status: "sent", subject: "Hello" },
      { toAddress: "waiting@example.com", textBody: "Dear waiting@example.com", status: "pending", subject: "Hello" },
      { toAddress: "", textBody: "", status: "dead", subject: "Hello" },
    ]);
    expect(await database.db.selectFrom("loginAttempts").select("key").execute()).toEqual([{ key: "user:recent" }]);
    const enquiries = await database.db.selectFrom("enquiries").selectAll().orderBy("id").execute();
    const byId = new Map(enquiries.map((e) => [e.id, e]));
    for (const { id } of [oldProcessed, oldUnprocessed]) {
      expect(byId.get(id)).toMatchObject({
        firstName: ANONYMISED_NAME,
        lastName: "",
        email: "",
        company: null,
        message: "",
        service: "startup-visa",
      });
      expect(byId.get(id)!.anonymisedAt).toBeInstanceOf(Date);
    }
    for (const { id } of [recentlyProcessed, recent])
      expect(byId.get(id)).toMatchObject({ firstName: "Sara", anonymisedAt: null });
    const meetings = new Map((await database.db.selectFrom("meetings").selectAll().execute()).map((m) => [m.id, m]));
    expect(meetings.get(heldLongAgo.id)).toMatchObject({
      name: ANONYMISED_NAME,
      email: "",
      phone: "",
      date: "2024-11-20",
    });
    expect(meetings.get(heldRecently.id)).toMatchObject({ name: "Nima", email: "m2@example.com" });
    expect(meetings.get(future.id)).toMatchObject({ name: "Nima" });
    const left = await database.db.selectFrom("newsletterSubscribers").select("email").orderBy("email").execute();
    expect(left.map((r) => r.email)).toEqual(["left-new@example.com", "pending-new@example.com", "reader@example.com"]);
    // Counts still add up: no enquiry or meeting row was deleted.
    expect(enquiries).toHaveLength(4);
    expect(meetings.size).toBe(3);

    // A second run finds nothing left to do.
    expect(Object.values(await applyRetention(database.db, policy, AT)).every((n) => n === 0)).toBe(true);
  });

  test("the figures come from the policy: a shorter record time anonymises more", async () => {
    await enquiry("e@example.com", daysBefore(100), daysBefore(95));
    expect((await applyRetention(database.db, { ...policy, recordMonths: 3 }, AT)).enquiriesAnonymised).toBe(1);
    expect(
      await database.db
        .selectFrom("enquiries")
        .select(sql<string>`email`.as("email"))
        .execute(),
    ).toEqual([{ email: "" }]);
  });
});

describe("applyRetention and the lead desk", () => {
  test("an anonymised enquiry or meeting takes its notes and messages with it; a recent one keeps them", async () => {
    const old = await enquiry("old.lead@example.com", daysBefore(800), daysBefore(790));
    const recent = await enquiry("recent.lead@example.com", daysBefore(10));
    const past = await meeting("old.lead@example.com", "2024-01-02");
    const note = (values: { enquiryId?: number; meetingId?: number; email: string }) =>
      database.db
        .insertInto("leadNotes")
        .values({ authorUsername: "admin", body: "Prefers mornings", ...values })
        .execute();
    await note({ enquiryId: old.id, email: "old.lead@example.com" });
    await note({ meetingId: past.id, email: "old.lead@example.com" });
    await note({ enquiryId: recent.id, email: "recent.lead@example.com" });
    for (const id of [old.id, recent.id])
      await database.db
        .insertInto("leadMessages")
        .values({
          enquiryId: id,
          direction: "in",
          fromAddress: "lead@example.com",
          toAddress: "office@example.com",
          subject: "Re",
          textBody: "Yes",
        })
        .execute();

    await applyRetention(database.db, policy, AT);

    const notes = await database.db.selectFrom("leadNotes").select(["enquiryId", "meetingId"]).execute();
    expect(notes).toEqual([{ enquiryId: recent.id, meetingId: null }]);
    const messages = await database.db.selectFrom("leadMessages").select("enquiryId").execute();
    expect(messages).toEqual([{ enquiryId: recent.id }]);
  });
});
