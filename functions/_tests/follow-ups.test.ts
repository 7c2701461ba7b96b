import { beforeEach, describe, expect, test } from "vitest";
import { DUMMY_HASH } from "#db/admins.ts";
import { addClosure } from "#db/availability.repository.ts";
import { createUser, setEmail, setPanelLanguage } from "#db/users.repository.ts";
import { leadLink, type DueLead } from "#shared/follow-ups.ts";
import type { LeadStage } from "#shared/leads.ts";
import { apiTestbed, call, type ApiTestDatabase } from "./harness.ts";
import { TestMailServer } from "./mail-server.ts";
import adminDue from "../admin-due.ts";
import adminLeads from "../admin-leads.ts";
import adminSubmissions from "../admin-submissions.ts";
import adminStats from "../admin-stats.ts";
import type { AdminEnquiry, LeadBoard } from "#shared/api/enquiries.ts";
import outboxRetry, { config as retryConfig } from "../outbox-retry.ts";
import { queueDigests } from "../_lib/mail/digest.ts";
import { officeRules } from "#server/office.ts";

const smtp = new TestMailServer();
let t: ApiTestDatabase;
let cookie = "";
apiTestbed({ admin: "due-admin", smtp }, (bed) => ({ t, cookie } = bed));

/** The clock of the handlers and the scheduled run, as an Amsterdam wall time (CET, UTC+1, in late November). */
const setClock = (local: string) => (process.env.BOOKING_NOW = new Date(`${local}+01:00`).toISOString());

let owners: Record<"sara" | "reza" | "idle" | "mute", number>;

beforeEach(async () => {
  process.env.SMTP_URL = smtp.url;
  smtp.messages.length = 0;
  for (const table of ["leadDigests", "emailOutbox", "enquiries"] as const) await t.db.deleteFrom(table).execute();
  // The closures a test adds; the seeded 24 and 31 December stay.
  await t.db.deleteFrom("officeClosures").where("note", "in", ["Team day", "Moving office"]).execute();
  await t.db.deleteFrom("users").where("username", "in", ["sara", "reza", "idle", "mute"]).execute();
  const owner = async (username: string, lang: "en" | "nl" | "fa" | null, email: string | null) => {
    const user = await createUser(t.db, username, DUMMY_HASH);
    if (email) await setEmail(t.db, user.id, email);
    if (lang) await setPanelLanguage(t.db, user.id, lang);
    return user.id;
  };
  owners = {
    sara: await owner("sara", "nl", "sara@bridgewise.test"),
    reza: await owner("reza", "fa", "reza@bridgewise.test"),
    idle: await owner("idle", "en", "idle@bridgewise.test"),
    // Something due, but no address to send it to.
    mute: await owner("mute", null, null),
  };
  const lead = (
    firstName: string,
    receivedLocal: string,
    stage: LeadStage,
    ownerId: number | null,
    followUpOn: string | null = null,
  ) => ({
    firstName,
    lastName: "Lead",
    email: `${firstName.toLowerCase()}@example.com`,
    service: "startup-visa",
    message: "A message long enough.",
    language: "en",
    createdAt: new Date(`${receivedLocal}+01:00`),
    stage,
    repliedAt: stage === "new" ? null : new Date(`${receivedLocal}+01:00`),
    clientService: stage === "client" ? "startup-visa" : null,
    ownerId,
    followUpOn,
  });
  await t.db
    .insertInto("enquiries")
    .values([
      // Friday 20 November, 17:00: due by Tuesday 24, overdue from Wednesday 25.
      lead("Anna", "2026-11-20T17:00:00", "new", owners.sara),
      // Its follow-up day is Wednesday 25.
      lead("Bahram", "2026-11-02T10:00:00", "replied", owners.reza, "2026-11-25"),
      // Waiting since Tuesday 24: not overdue before Friday.
      lead("Cas", "2026-11-24T09:00:00", "new", owners.idle),
      // A follow-up still to come, and one of a client (no longer open).
      lead("Dana", "2026-11-02T10:00:00", "replied", owners.idle, "2026-11-26"),
      lead("Eli", "2026-11-02T10:00:00", "client", owners.idle, "2026-11-20"),
      // Overdue and nobody's: the Due panel shows it, no digest names it.
      lead("Fay", "2026-11-16T10:00:00", "new", null),
      lead("Gus", "2026-11-16T10:00:00", "new", owners.mute),
    ])
    .execute();
});

const digests = () => t.db.selectFrom("leadDigests").selectAll().orderBy("ownerId").execute();
const digestMail = () =>
  t.db.selectFrom("emailOutbox").selectAll().where("kind", "=", "digest").orderBy("id").execute();

describe("GET /api/admin/due", () => {
  test("lists the due follow-ups and the overdue waiting leads, oldest first, with why; nothing else", async () => {
    setClock("2026-11-25T10:00:00");
    const res = await call(adminDue, "/api/admin/due", { cookie });
    expect(res.status).toBe(200);
    expect(res.json.today).toBe("2026-11-25");
    const leads = res.json.leads as DueLead[];
    expect(leads.map((l) => [l.name, l.reasons, l.answerDueBy, l.followUpOn, l.ownerName])).toEqual([
      ["Fay Lead", ["overdue"], "2026-11-18", null, null],
      ["Gus Lead", ["overdue"], "2026-11-18", null, "mute"],
      ["Anna Lead", ["overdue"], "2026-11-24", null, "sara"],
      ["Bahram Lead", ["followUp"], null, "2026-11-25", "reza"],
    ]);
    expect(leads[2].reference).toMatch(/^E-\d{5}$/);
    expect(res.json.more).toBe(false);
  });

  test("on Monday morning Friday's lead is not yet overdue; an office closure on the Tuesday moves it a day", async () => {
    setClock("2026-11-23T09:00:00");
    const monday = (await call(adminDue, "/api/admin/due", { cookie })).json.leads as DueLead[];
    expect(monday.map((l) => l.name)).not.toContain("Anna Lead");
    await addClosure(t.db, { from: "2026-11-24", to: "2026-11-24", yearly: false, note: "Team day" });
    setClock("2026-11-25T09:00:00");
    const wednesday = (await call(adminDue, "/api/admin/due", { cookie })).json.leads as DueLead[];
    expect(wednesday.map((l) => l.name)).not.toContain("Anna Lead");
    setClock("2026-11-26T00:00:00");
    const thursday = (await call(adminDue, "/api/admin/due", { cookie })).json.leads as DueLead[];
    expect(thursday.find((l) => l.name === "Anna Lead")).toMatchObject({
      reasons: ["overdue"],
      answerDueBy: "2026-11-25",
    });
  });

  test("the list's and the board's overdue filter count by the same closure as the Due panel", async () => {
    const overdue = async () => {
      const list = (await call(adminSubmissions, "/api/admin/submissions?attention=overdue", { cookie }))
        .json as AdminEnquiry[];
      const board = (await call(adminLeads, "/api/admin/leads/board?attention=overdue", { cookie })).json as LeadBoard;
      const names = list.map((e) => e.firstName);
      expect(board.columns.flatMap((c) => c.items.map((e) => e.firstName)).sort()).toEqual([...names].sort());
      return names;
    };
    await addClosure(t.db, { from: "2026-11-24", to: "2026-11-24", yearly: false, note: "Team day" });
    setClock("2026-11-25T09:00:00");
    expect(await overdue()).not.toContain("Anna");
    setClock("2026-11-26T00:00:00");
    expect(await overdue()).toContain("Anna");
  });

  test("admins only; no parameters", async () => {
    setClock("2026-11-25T10:00:00");
    expect((await call(adminDue, "/api/admin/due")).status).toBe(401);
    for (const query of ["owner=me", "__proto__=1", "a=1&a=2"])
      expect((await call(adminDue, `/api/admin/due?${query}`, { cookie })).status, query).toBe(400);
    expect((await call(adminDue, "/api/admin/due", { cookie, method: "POST", body: {} })).status).toBe(405);
  });
});

describe("the morning digest", () => {
  test("08:29 nothing; 08:30 one email to each owner with something due, in their language; 08:31 nothing more", async () => {
    expect(retryConfig.schedule).toBe("*/15 * * * *");
    setClock("2026-11-25T08:29:00");
    await outboxRetry();
    expect(await digests()).toEqual([]);

    setClock("2026-11-25T08:30:00");
    await outboxRetry();
    expect((await digests()).map((d) => [d.ownerId, d.officeDate, d.leads])).toEqual([
      [owners.sara, "2026-11-25", 1],
      [owners.reza, "2026-11-25", 1],
    ]);
    const sent = await smtp.waitFor(2);
    const to = (address: string) => sent.find((m) => m.envelope.to.includes(address))!.parsed;
    expect(sent.flatMap((m) => m.envelope.to).sort()).toEqual(["reza@bridgewise.test", "sara@bridgewise.test"]);
    const anna = await t.db
      .selectFrom("enquiries")
      .select("id")
      .where("firstName", "=", "Anna")
      .executeTakeFirstOrThrow();
    const annaRef = `E-${String(anna.id).padStart(5, "0")}`;
    const nl = to("sara@bridgewise.test");
    expect(nl.subject).toBe("Vandaag voor jou: woensdag 25 november 2026");
    expect(nl.text).toContain(`${annaRef} Anna Lead`);
    expect(nl.text).toContain("Wacht op ons antwoord; dat werd uiterlijk di 24 nov 2026 verwacht");
    expect(nl.text).toContain(`https://bridgewise.eu${leadLink(annaRef)}`);
    expect(nl.html).toContain('<html lang="nl" dir="ltr">');
    const fa = to("reza@bridgewise.test");
    expect(fa.subject).toContain("کارهای امروز شما");
    // Jalali, in Persian digits: 4 Azar 1405.
    expect(fa.text).toContain("تاریخ پیگیری: ۴ آذر ۱۴۰۵");
    expect(fa.html).toContain('dir="rtl"');

    setClock("2026-11-25T08:31:00");
    await outboxRetry();
    setClock("2026-11-25T16:00:00");
    await outboxRetry();
    expect((await digests()).length).toBe(2);
    expect((await digestMail()).length).toBe(2);
    expect(smtp.messages.length).toBe(2);
  });

  test("several instances at once queue one digest per owner and day", async () => {
    // Thursday 08:30: Dana's follow-up has come too, so idle has something due today.
    const at = new Date("2026-11-26T07:30:00Z");
    const rules = officeRules();
    const queued = await Promise.all(Array.from({ length: 6 }, () => queueDigests(t.db, at, rules)));
    expect(queued.reduce((a, b) => a + b, 0)).toBe(3);
    expect((await digestMail()).map((m) => m.toAddress).sort()).toEqual([
      "idle@bridgewise.test",
      "reza@bridgewise.test",
      "sara@bridgewise.test",
    ]);
  });

  test("a Saturday, a public holiday and an office closure send nothing", async () => {
    for (const local of ["2026-11-28T09:00:00", "2026-12-25T09:00:00", "2026-12-24T09:00:00"]) {
      setClock(local);
      await outboxRetry();
    }
    await addClosure(t.db, { from: "2026-11-30", to: "2026-11-30", yearly: false, note: "Moving office" });
    setClock("2026-11-30T09:00:00");
    await outboxRetry();
    expect(await digests()).toEqual([]);
    expect(await digestMail()).toEqual([]);
    // The next working day it goes.
    setClock("2026-12-01T08:30:00");
    await outboxRetry();
    expect((await digests()).map((d) => d.officeDate)).toEqual(["2026-12-01", "2026-12-01", "2026-12-01"]);
  });
});

describe("waiting on us again when the lead answers (as Front and Help Scout reopen a conversation)", () => {
  /** Adds leads answered by us on 3 November, and the lead's own answers and ours as given. */
  async function conversation(
    firstName: string,
    stage: LeadStage,
    messages: [direction: "in" | "out", local: string][],
  ): Promise<number> {
    const { id } = await t.db
      .insertInto("enquiries")
      .values({
        firstName,
        lastName: "Lead",
        email: `${firstName.toLowerCase()}@example.com`,
        service: "startup-visa",
        message: "A message long enough.",
        language: "en",
        createdAt: new Date("2026-11-02T10:00:00+01:00"),
        stage,
        repliedAt: new Date("2026-11-03T10:00:00+01:00"),
        lostReasonId: stage === "lost" ? 1 : null,
        ownerId: owners.sara,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const all: [direction: "in" | "out", local: string][] = [["out", "2026-11-03T10:00:00"], ...messages];
    await t.db
      .insertInto("leadMessages")
      .values(
        all.map(([direction, local]) => ({
          enquiryId: id,
          direction,
          fromAddress: direction === "in" ? `${firstName}@example.com` : "office@bridgewise.test",
          toAddress: direction === "in" ? "reply@bridgewise.test" : `${firstName}@example.com`,
          subject: "Re: your enquiry",
          textBody: "Thanks!",
          sentBy: direction === "out" ? "sara" : null,
          createdAt: new Date(`${local}+01:00`),
        })),
      )
      .execute();
    return id;
  }
  const waitingList = async () =>
    ((await call(adminSubmissions, "/api/admin/submissions?attention=waiting", { cookie })).json as AdminEnquiry[]).map(
      (e) => e.firstName,
    );
  const overdueList = async () =>
    ((await call(adminSubmissions, "/api/admin/submissions?attention=overdue", { cookie })).json as AdminEnquiry[]).map(
      (e) => e.firstName,
    );
  const duePanel = async () => (await call(adminDue, "/api/admin/due", { cookie })).json.leads as DueLead[];

  test("an answer of the lead after our reply makes it wait again; overdue two working days later; our reply ends it", async () => {
    // Answered us on Friday 20 November at 17:00, after our reply of the 3rd: waiting since then.
    const hana = await conversation("Hana", "replied", [["in", "2026-11-20T17:00:00"]]);
    // Answered us, and we answered back: not waiting.
    await conversation("Ivo", "meeting", [
      ["in", "2026-11-20T17:00:00"],
      ["out", "2026-11-21T09:00:00"],
    ]);
    // A lost lead that writes back is not waiting (no longer open).
    await conversation("Jo", "lost", [["in", "2026-11-20T17:00:00"]]);
    // Two answers in a row: waiting since the first.
    await conversation("Kai", "proposal", [
      ["in", "2026-11-16T10:00:00"],
      ["in", "2026-11-24T10:00:00"],
    ]);

    // Monday morning: Hana waits, but is not overdue yet; Kai (waiting since Monday 16) is.
    setClock("2026-11-23T09:00:00");
    expect(await waitingList()).toEqual(expect.arrayContaining(["Hana", "Kai"]));
    expect(await waitingList()).not.toEqual(expect.arrayContaining(["Ivo"]));
    expect(await waitingList()).not.toEqual(expect.arrayContaining(["Jo"]));
    expect(await overdueList()).not.toContain("Hana");
    expect(await overdueList()).toContain("Kai");
    expect((await duePanel()).map((l) => l.name)).not.toContain("Hana Lead");
    expect((await duePanel()).find((l) => l.name === "Kai Lead")).toMatchObject({
      reasons: ["overdue"],
      answerDueBy: "2026-11-18",
    });

    // Wednesday: the list, the Due panel and the digest agree that Hana is overdue (due by Tuesday).
    setClock("2026-11-25T08:30:00");
    expect(await overdueList()).toEqual(expect.arrayContaining(["Hana", "Kai"]));
    expect((await duePanel()).find((l) => l.name === "Hana Lead")).toMatchObject({
      reasons: ["overdue"],
      answerDueBy: "2026-11-24",
    });
    await outboxRetry();
    const [digest] = (await digestMail()).filter((m) => m.toAddress === "sara@bridgewise.test");
    expect(digest.textBody).toContain(`E-${String(hana).padStart(5, "0")} Hana Lead`);
    expect(digest.textBody).toContain("Kai Lead");
    expect(digest.textBody).not.toContain("Ivo Lead");
    expect(digest.textBody).not.toContain("Jo Lead");

    // The figures' "waiting on us" count is the same rule: Anna, Cas, Fay, Gus (new), Hana, Kai.
    const stats = (await call(adminStats, "/api/admin/stats", { cookie })).json as { pending: number };
    expect(stats.pending).toBe(6);

    // Our reply at 11:00 ends the wait everywhere.
    await t.db
      .insertInto("leadMessages")
      .values({
        enquiryId: hana,
        direction: "out",
        fromAddress: "office@bridgewise.test",
        toAddress: "hana@example.com",
        subject: "Re: your enquiry",
        textBody: "Of course.",
        sentBy: "sara",
        createdAt: new Date("2026-11-25T11:00:00+01:00"),
      })
      .execute();
    setClock("2026-11-25T11:30:00");
    expect(await waitingList()).not.toContain("Hana");
    expect(await overdueList()).not.toContain("Hana");
    expect((await duePanel()).map((l) => l.name)).not.toContain("Hana Lead");
  });
});
