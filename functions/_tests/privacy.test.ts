/**
 * The admin's privacy tools and the delete of a spam enquiry, through the real handlers on a real
 * database: DELETE /api/admin/submissions/{id}, POST /api/admin/privacy/export and /erase.
 */
import { sql } from "kysely";
import { beforeEach, describe, expect, test } from "vitest";
import { call, ORIGIN, apiTestbed, type ApiTestDatabase } from "./harness.ts";
import contact from "../contact.ts";
import meetings from "../meetings.ts";
import login from "../login.ts";
import newsletter from "../newsletter.ts";
import enquiries from "../admin-submissions.ts";
import adminMeetings from "../admin-meetings.ts";
import privacy from "../admin-privacy.ts";
import stats from "../admin-stats.ts";
import { signManageToken } from "../_lib/booking/manage-token.ts";
import manage from "../meeting-manage.ts";
import { trailKey } from "#db/login-attempts.repository.ts";
import type { PersonalDataExport } from "#shared/api/privacy.ts";

let t: ApiTestDatabase;
let cookie: string;

apiTestbed({ bookingAsBefore: true, admin: "privacy-admin" }, (bed) => ({ t, cookie } = bed));
beforeEach(() => {
  // Monday 2026-11-23, 10:10 in Amsterdam.
  process.env.BOOKING_NOW = "2026-11-23T09:10:00Z";
  // No SMTP server: the emails stay in the outbox (the file outbox is used only when delivered).
  process.env.SMTP_URL = "smtp://127.0.0.1:9";
});

const enquiry = (email: string, message = "We want to open an office in Amsterdam.") =>
  call(contact, "/api/contact", {
    body: { firstName: "Zara", lastName: "Karimi", email, company: "Zarco", service: "startup-visa", message },
  });
/** An admin's note written on a record (as POST /api/admin/people/{ref}/notes stores it). */
async function writeNote(table: "enquiries" | "meetings", id: number, body: string) {
  const { email } = await t.db.selectFrom(table).select("email").where("id", "=", id).executeTakeFirstOrThrow();
  await t.db
    .insertInto("leadNotes")
    .values({
      email: email.toLowerCase(),
      enquiryId: table === "enquiries" ? id : null,
      meetingId: table === "meetings" ? id : null,
      authorUsername: "admin",
      body,
    })
    .execute();
}
const notesOn = (column: "enquiryId" | "meetingId", id: number) =>
  t.db.selectFrom("leadNotes").select("body").where(column, "=", id).execute();

const admin = (path: string, method: string, body?: unknown) =>
  call(path.includes("/privacy/") ? privacy : enquiries, path, {
    method,
    body,
    cookie,
    headers: { origin: ORIGIN },
  });

describe("DELETE /api/admin/submissions/{id}", () => {
  test("deletes a spam enquiry and its emails still waiting in the outbox (204)", async () => {
    const { json } = await enquiry("spam@example.com", "Buy cheap followers at spam.example now!");
    const keep = await enquiry("real@example.com");
    const pending = () =>
      t.db.selectFrom("emailOutbox").select("enquiryId").where("enquiryId", "in", [json.id, keep.json.id]).execute();
    expect((await pending()).filter((r) => r.enquiryId === json.id)).toHaveLength(2);

    const res = await admin(`/api/admin/submissions/${json.id}`, "DELETE");

    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect(await t.db.selectFrom("enquiries").select("id").where("id", "=", json.id).execute()).toEqual([]);
    expect((await pending()).map((r) => r.enquiryId)).toEqual([keep.json.id, keep.json.id]);
    expect((await admin(`/api/admin/submissions/${json.id}`, "DELETE")).status).toBe(404);
  });

  test("needs a session and the site's origin; unknown ids are 404; Allow stays right", async () => {
    const { json } = await enquiry("other@example.com");
    const path = `/api/admin/submissions/${json.id}`;
    expect((await call(enquiries, path, { method: "DELETE", headers: { origin: ORIGIN } })).status).toBe(401);
    expect(
      (await call(enquiries, path, { method: "DELETE", cookie, headers: { origin: "https://evil.example" } })).status,
    ).toBe(403);
    for (const id of ["999999", "0", "abc", "99999999999"])
      expect((await admin(`/api/admin/submissions/${id}`, "DELETE")).status, id).toBe(404);
    const onList = await admin("/api/admin/submissions", "DELETE");
    expect(onList.status).toBe(405);
    expect(onList.headers.get("allow")).toBe("GET");
    const getOne = await admin(path, "GET");
    expect(getOne.status).toBe(405);
    expect(getOne.headers.get("allow")).toBe("PATCH, DELETE");
    // Meetings cannot be deleted this way.
    const meeting = await call(adminMeetings, "/api/admin/meetings/1", {
      method: "DELETE",
      cookie,
      headers: { origin: ORIGIN },
    });
    expect(meeting.status).toBe(405);
    expect(meeting.headers.get("allow")).not.toContain("DELETE");
    expect(await t.db.selectFrom("enquiries").select("id").where("id", "=", json.id).execute()).toHaveLength(1);
  });
});

/** Every text column of every table of ours, and how many of its values contain `needle`. */
async function traces(needle: string): Promise<string[]> {
  const { rows: columns } = await sql<{ tab: string; col: string }>`
    SELECT table_name AS tab, column_name AS col FROM information_schema.columns
    WHERE table_schema = 'public' AND data_type IN ('text', 'character varying')
      AND table_name NOT LIKE 'kysely_%'`.execute(t.db);
  expect(columns.length).toBeGreaterThan(20);
  const found: string[] = [];
  for (const { tab, col } of columns) {
    const { rows } = await sql<{ n: string }>`
      SELECT count(*) AS n FROM ${sql.table(tab)} WHERE ${sql.ref(col)} ILIKE ${`%${needle}%`}`.execute(t.db);
    if (Number(rows[0].n) > 0) found.push(`${tab}.${col}: ${rows[0].n}`);
  }
  return found;
}

describe("export and erase one address", () => {
  const PERSON = "Mahsa.Tehrani+work@example.com";
  // A word only this person's data holds: their name, typed into every form.
  const NAME = "Mahsavandi";

  async function leaveTraces() {
    await call(contact, "/api/contact", {
      body: {
        firstName: NAME,
        lastName: "Tehrani",
        email: PERSON,
        company: `${NAME} Trading`,
        service: "business-launchpad",
        message: `Hello, this is ${NAME}; reach me at ${PERSON.toLowerCase()}.`,
      },
    });
    await call(meetings, "/api/meetings/schedule", {
      body: {
        name: `${NAME} Tehrani`,
        email: PERSON.toUpperCase(),
        phone: "+98 21 5555 1234",
        date: "2026-11-27",
        time: "10:00",
      },
    });
    // The admin's internal notes about the person are theirs to erase too.
    const theirs = await t.db.selectFrom("enquiries").select("id").where("firstName", "=", NAME).execute();
    for (const { id } of theirs) await writeNote("enquiries", id, `${NAME} prefers mornings`);
    const booked = await t.db.selectFrom("meetings").select("id").where("name", "like", `${NAME}%`).execute();
    for (const { id } of booked) await writeNote("meetings", id, `${NAME} asked for Persian`);
    await call(newsletter, "/api/newsletter", { body: { email: PERSON, language: "fa", page: "/fa/" } });
    await call(login, "/api/login", { body: { username: PERSON, password: "guessing" }, headers: { origin: ORIGIN } });
    // Someone else's data, which must stay; one of them quotes the address in their message.
    await enquiry("someone.else@example.com");
    await enquiry("quoter@example.com", `Please also write to my colleague ${PERSON}, she knows the details.`);
  }

  test("export answers everything held about the address, as a JSON download", async () => {
    await leaveTraces();
    const res = await admin("/api/admin/privacy/export", "POST", { email: PERSON.toLowerCase() });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="personal-data-2026-11-23\.json"$/);
    const data = res.json as PersonalDataExport;
    expect(data.enquiries).toHaveLength(1);
    expect(data.enquiries[0]).toMatchObject({ firstName: NAME, email: PERSON, company: `${NAME} Trading` });
    expect(data.meetings).toHaveLength(1);
    expect(data.meetings[0]).toMatchObject({ phone: "+98 21 5555 1234", date: "2026-11-27", time: "10:00" });
    // The admin's notes on the person's records are data about them too.
    expect(data.notes).toEqual([
      expect.objectContaining({
        reference: `E-${String(data.enquiries[0].id).padStart(5, "0")}`,
        text: `${NAME} prefers mornings`,
        by: "admin",
      }),
      expect.objectContaining({
        reference: `M-${String(data.meetings[0].id).padStart(5, "0")}`,
        text: `${NAME} asked for Persian`,
        by: "admin",
      }),
    ]);
    expect(data.newsletter).toEqual([
      expect.objectContaining({
        email: PERSON,
        language: "fa",
        signedUpOnPage: "/fa/",
        confirmedAt: null,
        isActive: false,
      }),
    ]);
    // The company's notification and the acknowledgement of each record, and the newsletter confirmation.
    expect(data.emails.map((e) => e.kind).sort()).toEqual([
      "enquiry.company",
      "enquiry.visitor",
      "meeting.company",
      "meeting.requested",
      "newsletter.confirm",
    ]);
    expect(data.loginAttempts.map((a) => a.key)).toContain(trailKey(`user:${PERSON}`));
    expect(data.adminAccount).toBeNull();
    // Nothing of anyone else, not even an email that quotes the address.
    expect(JSON.stringify(data)).not.toContain("someone.else@example.com");
    expect(JSON.stringify(data)).not.toContain("quoter@example.com");
  });

  test("erase leaves no trace of the address (or the person's name) in any table; the rows stay, anonymised", async () => {
    const before = {
      enquiries: Number(
        (
          await t.db
            .selectFrom("enquiries")
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      ),
      meetings: Number(
        (
          await t.db
            .selectFrom("meetings")
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    };
    expect(await traces("mahsa.tehrani")).not.toEqual([]);

    const res = await admin("/api/admin/privacy/erase", "POST", { email: "MAHSA.TEHRANI+WORK@example.com" });

    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      success: true,
      // 5 emails of the person's own, and the company's notification of the enquiry that quoted the address.
      erased: { enquiries: 1, meetings: 1, newsletter: 1, emails: 6, loginAttempts: 1 },
    });
    expect(await traces("mahsa.tehrani")).toEqual([]);
    expect(await traces(NAME)).toEqual([]);
    expect(await traces("5555 1234")).toEqual([]);
    // Counts add up; the meeting's slot, service and dates stay; someone else's data is untouched.
    expect(
      Number(
        (
          await t.db
            .selectFrom("enquiries")
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(before.enquiries);
    expect(
      Number(
        (
          await t.db
            .selectFrom("meetings")
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(before.meetings);
    expect(
      await t.db.selectFrom("meetings").select(["date", "time", "name"]).where("date", "=", "2026-11-27").execute(),
    ).toEqual([{ date: "2026-11-27", time: "10:00", name: "Anonymised" }]);
    expect(await traces("someone.else@example.com")).not.toEqual([]);
    const [quoting] = await t.db
      .selectFrom("enquiries")
      .select("message")
      .where("email", "=", "quoter@example.com")
      .execute();
    expect(quoting.message).toBe("Please also write to my colleague [address removed], she knows the details.");
    // Nothing is left to export.
    const after = (await admin("/api/admin/privacy/export", "POST", { email: PERSON })).json as PersonalDataExport;
    expect([after.enquiries, after.meetings, after.newsletter, after.emails, after.loginAttempts]).toEqual([
      [],
      [],
      [],
      [],
      [],
    ]);
  });

  test("both need a session, the site's origin and a valid address", async () => {
    for (const path of ["/api/admin/privacy/export", "/api/admin/privacy/erase"]) {
      expect(
        (await call(privacy, path, { body: { email: "a@example.com" }, headers: { origin: ORIGIN } })).status,
      ).toBe(401);
      expect(
        (
          await call(privacy, path, {
            body: { email: "a@example.com" },
            cookie,
            headers: { origin: "https://evil.example" },
          })
        ).status,
      ).toBe(403);
      const bad = await admin(path, "POST", { email: "not an address" });
      expect(bad.status).toBe(400);
      expect(bad.json.message).toBe("Please enter a valid email address");
      expect((await call(privacy, path, { cookie })).status).toBe(405);
    }
  });
});

describe("erasure and export touch only the person asked for", () => {
  const ANN = "ann.sfx@example.com";
  const JOANN = "joann.sfx@example.com";

  test("erasing ann.sfx@example.com leaves JoAnn's message, her emails and her login attempt alone; exporting Ann returns none of JoAnn's", async () => {
    const joann = await enquiry(JOANN, "Please write to joann.sfx@example.com only.");
    const quoting = await enquiry("third.sfx@example.com", "My partner is ann.sfx@example.com. Ask her.");
    await t.db
      .insertInto("loginAttempts")
      .values([{ key: trailKey(`user:${JOANN}`) }, { key: trailKey(`user:${ANN}`) }])
      .execute();
    const joannEmails = () =>
      t.db.selectFrom("emailOutbox").select("id").where("enquiryId", "=", joann.json.id).execute();
    await writeNote("enquiries", joann.json.id, "Also call ann.sfx@example.com about this.");
    const before = (await joannEmails()).length;
    expect(before).toBeGreaterThan(0);

    const exported = await admin("/api/admin/privacy/export", "POST", { email: ANN });
    const data = exported.json as PersonalDataExport;
    expect(data.loginAttempts.map((a) => a.key)).toEqual([trailKey(`user:${ANN}`)]);

    expect((await admin("/api/admin/privacy/erase", "POST", { email: ANN })).status).toBe(200);

    const messages = await t.db
      .selectFrom("enquiries")
      .select(["id", "message"])
      .where("id", "in", [joann.json.id, quoting.json.id])
      .orderBy("id")
      .execute();
    expect(messages[0].message).toBe("Please write to joann.sfx@example.com only.");
    expect(await notesOn("enquiryId", joann.json.id)).toEqual([{ body: "Also call [address removed] about this." }]);
    expect(messages[1].message).toBe("My partner is [address removed]. Ask her.");
    expect((await joannEmails()).length).toBe(before);
    const keys = (await t.db.selectFrom("loginAttempts").select("key").execute()).map((r) => r.key);
    expect(keys).toContain(trailKey(`user:${JOANN}`));
    expect(keys).not.toContain(trailKey(`user:${ANN}`));
  });
});

describe("erasure scrubs the person from the notes of other records", () => {
  test("their name and phone number, however written, go from other records' notes; other names and numbers stay", async () => {
    const ANN = "ann.notes@example.com";
    const booked = await call(meetings, "/api/meetings/schedule", {
      body: { name: "Ann Sfxname", email: ANN, phone: "+31 20 555 0199", date: "2026-12-02", time: "10:00" },
      ip: "192.0.2.71",
    });
    expect(booked.status).toBe(201);
    const bob = await enquiry("bob.notes@example.com", "Ann Sfxname told me about you.");
    const other = await call(meetings, "/api/meetings/schedule", {
      body: {
        name: "Carl Other",
        email: "carl.notes@example.com",
        phone: "+31 6 1234 5678",
        date: "2026-12-02",
        time: "11:00",
      },
      ip: "192.0.2.72",
    });
    expect(other.status).toBe(201);
    const bobNote =
      "Ann Sfxname (020-555 0199, ann.notes@example.com) introduced Bob; call Bob on +31 6 1234 5678. Also ANN  SFXNAME again, and Annie Sfxnamesson.";
    const carlNote =
      "Carl knows ann sfxname: she gave 0031205550199, (020) 555 0199 and +31 (0)20 5550199. Carl: 06-12345678.";
    await writeNote("enquiries", bob.json.id, bobNote);
    const carl = await t.db
      .selectFrom("meetings")
      .select("id")
      .where("email", "=", "carl.notes@example.com")
      .executeTakeFirstOrThrow();
    await writeNote("meetings", carl.id, carlNote);

    expect((await admin("/api/admin/privacy/erase", "POST", { email: ANN })).status).toBe(200);

    const bobRow = await t.db
      .selectFrom("enquiries")
      .select(["message"])
      .where("id", "=", bob.json.id)
      .executeTakeFirstOrThrow();
    expect((await notesOn("enquiryId", bob.json.id))[0].body).toBe(
      "[name removed] ([phone removed], [address removed]) introduced Bob; call Bob on +31 6 1234 5678. Also [name removed] again, and Annie Sfxnamesson.",
    );
    // Bob's own words are his: only an erased address is taken out of another person's message.
    expect(bobRow.message).toBe("Ann Sfxname told me about you.");
    expect((await notesOn("meetingId", carl.id))[0].body).toBe(
      "Carl knows [name removed]: she gave [phone removed], [phone removed] and [phone removed]. Carl: 06-12345678.",
    );
  });
});

describe("after an erasure, no link leads to the person's records", () => {
  test("the meeting's manage link no longer moves or cancels it (410)", async () => {
    const booked = await call(meetings, "/api/meetings/schedule", {
      body: {
        name: "Ann Link",
        email: "ann.link@example.com",
        phone: "+31 20 555 0101",
        date: "2026-11-30",
        time: "11:00",
      },
    });
    expect(booked.status).toBe(201);
    const row = await t.db
      .selectFrom("meetings")
      .select(["id", "manageVersion", "date", "time"])
      .where("email", "=", "ann.link@example.com")
      .executeTakeFirstOrThrow();
    const token = await signManageToken({
      id: row.id,
      manageVersion: row.manageVersion,
      date: row.date,
      time: row.time,
    });
    expect((await admin("/api/admin/privacy/erase", "POST", { email: "ann.link@example.com" })).status).toBe(200);

    const headers = { authorization: `Bearer ${token}`, origin: ORIGIN };
    const move = await call(manage, "/api/meetings/manage/move", {
      body: { date: "2026-12-01", time: "10:00" },
      headers,
    });
    expect(move.status).toBe(410);
    const cancel = await call(manage, "/api/meetings/manage/cancel", { method: "POST", headers });
    expect(cancel.status).toBe(410);
  });
});

describe("an erased person's records leave the lists and the counts", () => {
  test("the enquiry and the meeting are in neither list, nor in pending, new this week or the next 7 days", async () => {
    const kept = await enquiry("stays@example.com");
    const gone = await enquiry("leaves@example.com");
    const booked = await call(meetings, "/api/meetings/schedule", {
      body: {
        name: "Lea Ves",
        email: "leaves@example.com",
        phone: "+31 20 555 0102",
        date: "2026-11-25",
        time: "11:00",
      },
    });
    expect(booked.status).toBe(201);
    const { id: meetingId } = await t.db
      .selectFrom("meetings")
      .select("id")
      .where("email", "=", "leaves@example.com")
      .executeTakeFirstOrThrow();
    const figures = async () => (await call(stats, "/api/admin/stats", { cookie })).json;
    const before = await figures();
    const enquiryIds = async (query = "") =>
      ((await call(enquiries, `/api/admin/submissions${query}`, { cookie })).json as { id: number }[]).map((e) => e.id);
    const meetingIds = async (query = "") =>
      ((await call(adminMeetings, `/api/admin/meetings${query}`, { cookie })).json as { id: number }[]).map(
        (m) => m.id,
      );
    expect(await enquiryIds()).toContain(gone.json.id);
    expect(await meetingIds()).toContain(meetingId);

    expect((await admin("/api/admin/privacy/erase", "POST", { email: "leaves@example.com" })).status).toBe(200);

    for (const query of ["", "?status=pending", "?sort=oldest", "?q=Anonymised"]) {
      const ids = await enquiryIds(query);
      expect(ids, query).not.toContain(gone.json.id);
      expect(await meetingIds(query.replace("oldest", "soonest")), query).not.toContain(meetingId);
    }
    expect(await enquiryIds()).toContain(kept.json.id);
    const after = await figures();
    expect(after.pending).toBe(before.pending - 1);
    expect(after.newThisWeek).toBe(before.newThisWeek - 1);
    expect(after.meetingsNext7Days).toBe(before.meetingsNext7Days - 1);
  });
});
