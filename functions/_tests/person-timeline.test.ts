/**
 * One timeline per person (GET /api/admin/people/{ref}) and the notes about them (lead_notes),
 * through the real handlers on a real database: the same address in any case joins one timeline,
 * nobody else's items ever do, only a note's author changes it, an erasure leaves nothing of the
 * person in the notes, messages, lead events or meeting changes, and hostile input is a 4xx, never
 * a 5xx.
 */
import { firstConsultantMeeting } from "#db/testing.ts";
import { afterEach, describe, expect, test } from "vitest";
import { DUMMY_HASH } from "#db/admins.ts";
import { createMeeting } from "#db/meetings.repository.ts";
import { personTimeline } from "#db/timeline.repository.ts";
import { createUser } from "#db/users.repository.ts";
import { TIMELINE_LIMIT, type PersonTimelineAnswer, type TimelineItem } from "#shared/api/timeline.ts";
import { enquiryReference, meetingReference } from "#shared/leads.ts";
import { NOTE_MAX_LENGTH } from "#shared/admin-lists.ts";
import { apiTestbed, call, ORIGIN, type ApiTestDatabase } from "./harness.ts";
import { SESSION_COOKIE, signSession } from "../_lib/auth/auth.ts";
import contact from "../contact.ts";
import newsletter from "../newsletter.ts";
import submissions from "../admin-submissions.ts";
import people from "../admin-people.ts";
import notes from "../admin-notes.ts";
import note from "../admin-note.ts";
import privacy from "../admin-privacy.ts";
import manage from "../meeting-manage.ts";
import adminMeetings from "../admin-meetings.ts";
import { signManageToken } from "../_lib/booking/manage-token.ts";

let t: ApiTestDatabase;
let cookie: string;
apiTestbed({ admin: "desk-anna", rateLimitOff: true }, (bed) => ({ t, cookie } = bed));

const sessionOf = async (username: string, role: "admin" | "editor" = "admin") => {
  const user = await createUser(t.db, username, DUMMY_HASH, role);
  return `${SESSION_COOKIE}=${await signSession({ id: user.id, sessionVersion: 1 })}`;
};

/** The notes newest first: by time, then (one instant) by id, newest first, as the timeline orders them. */
const notesOrder = (a: string, b: string, rows: { body: string; createdAt: Date }[]) => {
  const at = (body: string) => rows.find((r) => r.body === body)!.createdAt.getTime();
  return at(b) - at(a);
};

let seq = 0;
/** A fresh person's address, so each test has its own timeline. */
const address = (name: string) => `${name}.${++seq}@Example.com`;

const enquire = async (email: string, fields: Record<string, string> = {}) => {
  const res = await call(contact, "/api/contact", {
    body: {
      firstName: "Sara",
      lastName: "Rahimi",
      email,
      company: "Arvan",
      service: "startup-visa",
      message: "We want to open an office in Amsterdam.",
      language: "en",
      ...fields,
    },
  });
  expect(res.status).toBe(201);
  return res.json.id as number;
};

const timeline = (ref: string, who = cookie) =>
  call(people, `/api/admin/people/${encodeURIComponent(ref)}`, { cookie: who, params: { ref } });
const addNote = (ref: string, body: unknown, who = cookie) =>
  call(notes, `/api/admin/people/${encodeURIComponent(ref)}/notes`, {
    body,
    cookie: who,
    params: { ref },
    headers: { origin: ORIGIN },
  });
const changeNote = (id: string, method: "PATCH" | "DELETE", body?: unknown, who = cookie) =>
  call(note, `/api/admin/notes/${encodeURIComponent(id)}`, {
    method,
    body,
    cookie: who,
    params: { id },
    headers: { origin: ORIGIN },
  });
/** The records the items are about (an email about no record, such as the newsletter's, names none). */
const refsOf = (items: TimelineItem[]) =>
  new Set(items.map((i) => ("reference" in i ? i.reference : i.note.reference)).filter((r) => r !== null));

describe("GET /api/admin/people/{ref}", () => {
  test("joins every enquiry and meeting of the address in any case, with its emails, messages, notes and changes", async () => {
    const email = address("Sara.Rahimi");
    const first = await enquire(email);
    const second = await enquire(email.toLowerCase(), { message: "Second thoughts: Rotterdam?" });
    const meeting = await createMeeting(t.db, {
      ...(await firstConsultantMeeting(t.db)),
      name: "Sara Rahimi",
      email: email.toUpperCase(),
      phone: "+31 6 1111 2222",
      date: "2099-03-03",
      time: "10:00",
    });
    // Someone else, and someone whose address holds Sara's: neither belongs here.
    const other = await enquire(address("other"), { firstName: "Omid", lastName: "Other" });
    const longer = await enquire(`x${email}`, { firstName: "Xena", lastName: "Longer" });
    await addNote(enquiryReference(other), { note: "Omid's own note" });
    // A stage and owner change, a reply out and an answer in, a newsletter sign-up.
    const patched = await call(submissions, `/api/admin/submissions/${first}`, {
      method: "PATCH",
      body: { version: 0, stage: "replied" },
      params: { id: String(first) },
      cookie,
      headers: { origin: ORIGIN },
    });
    expect(patched.status).toBe(200);
    await t.db
      .insertInto("leadMessages")
      .values([
        {
          enquiryId: first,
          direction: "out",
          fromAddress: "office@bridgewise.eu",
          toAddress: email,
          subject: "Your plans",
          textBody: "Shall we talk?",
          sentBy: "desk-anna",
        },
        {
          enquiryId: first,
          direction: "in",
          fromAddress: email,
          toAddress: "office@bridgewise.eu",
          subject: "Re: Your plans",
          textBody: "Yes please.",
        },
      ])
      .execute();
    expect((await call(newsletter, "/api/newsletter", { body: { email, language: "en", page: "/en/" } })).status).toBe(
      202,
    );
    expect((await addNote(meetingReference(meeting.id), { note: "Prefers mornings" })).status).toBe(201);

    // The emails go out beside the answers; once none is waiting or sending, the timeline stands still
    // (read while one was, the two reads below saw it "sending", then "sent": pg15 pass, 29 November).
    for (const until = Date.now() + 15_000; Date.now() < until; await new Promise((r) => setTimeout(r, 20))) {
      const sending = await t.db
        .selectFrom("emailOutbox")
        .select("id")
        .where("status", "in", ["pending", "sending"])
        .execute();
      if (sending.length === 0) break;
    }

    // Opened from any of their records, it is the same timeline.
    const fromMeeting = await timeline(meetingReference(meeting.id));
    const fromSecond = await timeline(enquiryReference(second).toLowerCase().replace("-", ""));
    expect(fromMeeting.status).toBe(200);
    expect(fromSecond.status).toBe(200);
    const answer = fromMeeting.json as PersonTimelineAnswer;
    expect(answer.person).toMatchObject({
      email: email.toLowerCase(),
      reference: meetingReference(meeting.id),
      erased: false,
    });
    expect((fromSecond.json as PersonTimelineAnswer).items).toEqual(answer.items);

    const kinds = answer.items.map((i) => i.kind);
    expect(kinds).toEqual(expect.arrayContaining(["enquiry", "meeting", "email", "message", "note", "change"]));
    // Never moved: the booking is where the meeting is.
    expect(answer.items.find((i) => i.kind === "meeting")).toMatchObject({ moved: false });
    expect(refsOf(answer.items)).toEqual(
      new Set([enquiryReference(first), enquiryReference(second), meetingReference(meeting.id)]),
    );
    expect(answer.items.filter((i) => i.kind === "message").map((i) => i.kind === "message" && i.direction)).toEqual([
      "in",
      "out",
    ]);
    expect(answer.items.find((i) => i.kind === "change")).toMatchObject({
      change: "stage",
      from: "new",
      to: "replied",
      by: "desk-anna",
    });
    expect(answer.items.find((i) => i.kind === "enquiry" && i.reference === enquiryReference(first))).toMatchObject({
      stage: "replied",
    });
    // Only what was sent to them: the office's notice about them is not theirs.
    const emails = answer.items.filter((i) => i.kind === "email");
    expect(emails.length).toBeGreaterThan(0);
    expect(emails.every((i) => i.kind === "email" && !i.type.includes("company"))).toBe(true);
    expect(answer.newsletter.status).toBe("pending");
    // Newest first.
    const times = answer.items.map((i) => i.at);
    expect([...times].sort().reverse()).toEqual(times);
    // Nothing of anyone else.
    const text = JSON.stringify(answer);
    for (const foreign of [
      "Omid",
      "Xena",
      `x${email.toLowerCase()}`,
      enquiryReference(other),
      enquiryReference(longer),
    ])
      expect(text).not.toContain(foreign);
  });

  test(`pages a person with 250 notes by time: the newest ${TIMELINE_LIMIT}, then the older ones, none twice or lost`, async () => {
    const id = await enquire(address("busy"));
    const { email } = await t.db.selectFrom("enquiries").select("email").where("id", "=", id).executeTakeFirstOrThrow();
    // One a minute, but notes 40 to 60 in the same instant, where the first page ends.
    const rows = Array.from({ length: 250 }, (_, i) => ({
      email: email.toLowerCase(),
      enquiryId: id,
      authorUsername: "desk-anna",
      body: `note ${i}`,
      // Newer than the enquiry and its emails, which another source reads.
      createdAt: new Date(Date.UTC(2099, 0, 1, 0, i >= 40 && i <= 60 ? 40 : i)),
    }));
    await t.db.insertInto("leadNotes").values(rows).execute();
    const ref = enquiryReference(id);
    const page = async (before?: string) => {
      const query = before ? `?before=${encodeURIComponent(before)}` : "";
      const res = await call(people, `/api/admin/people/${ref}${query}`, { cookie, params: { ref } });
      expect(res.status, res.text).toBe(200);
      return res.json as PersonTimelineAnswer;
    };
    const first = await page();
    expect(first.truncated).toBe(true);
    // The enquiry and its emails are older than every note: they come last, not lost between pages.
    expect(first.items.filter((i) => i.kind === "enquiry")).toHaveLength(0);
    // The page stops before the 21 notes of one instant rather than split them.
    expect(first.items.length).toBeLessThanOrEqual(TIMELINE_LIMIT);
    expect(first.items.length).toBeGreaterThan(TIMELINE_LIMIT - 21);
    const second = await page(first.next!);
    expect(second.next).toBeNull();
    expect(second.truncated).toBe(false);
    expect(second.items.filter((i) => i.kind === "enquiry")).toHaveLength(1);
    const notes = [...first.items, ...second.items].flatMap((i) => (i.kind === "note" ? [i.note.text] : []));
    expect(notes).toEqual(
      rows
        .map((r) => r.body)
        .reverse()
        .sort((a, b) => notesOrder(a, b, rows)),
    );
    expect(new Set(notes).size).toBe(250);
    // Newest first across the pages.
    const times = [...first.items, ...second.items].map((i) => i.at);
    expect(times).toEqual([...times].sort().reverse());
    // The person and their newsletter come with every page.
    expect(second.person.email).toBe(email.toLowerCase());
  });

  test("a page's cursor is one ISO instant; anything else, or another parameter, is a 400", async () => {
    const ref = enquiryReference(await enquire(address("cursor")));
    for (const query of [
      "before=yesterday",
      "before=2026-02-30T00:00:00Z",
      "before=1700000000000",
      "before=2026-11-25T09:00:00.000Z&before=2026-11-24T09:00:00.000Z",
      "before=",
      "page=2",
      "__proto__=1",
    ]) {
      const res = await call(people, `/api/admin/people/${ref}?${query}`, { cookie, params: { ref } });
      expect(res.status, query).toBe(400);
    }
    const old = await call(people, `/api/admin/people/${ref}?before=2000-01-01T00:00:00Z`, { cookie, params: { ref } });
    expect(old.status).toBe(200);
    expect(old.json).toMatchObject({ items: [], truncated: false, next: null });
  });

  test("a reference that does not parse or names nothing is 404; an editor and a stranger are refused", async () => {
    const id = await enquire(address("refs"));
    const editor = await sessionOf("writer-one", "editor");
    for (const ref of ["not-a-ref", "E-99999", "M-99999", "E-0", "X-00001", "E-99999999999", "%E0%A4%A", "__proto__"])
      expect((await timeline(ref)).status, ref).toBe(404);
    expect((await timeline(enquiryReference(id), editor)).status).toBe(403);
    expect((await timeline(enquiryReference(id), "")).status).toBe(401);
  });
});

/** Monday 2026-11-23, 10:10 in Amsterdam: the meetings below, that week, lie ahead whatever today is. */
const MONDAY = "2026-11-23T09:10:00Z";
const PIETER = "pieter-van-dijk";
afterEach(() => {
  delete process.env.BOOKING_NOW;
});

/** Pieter (speaks nl and en) takes meetings too, so a meeting can be handed to him. */
const pieterTakesMeetings = async () => {
  const known = await t.db.selectFrom("consultants").select("id").where("id", "=", PIETER).executeTakeFirst();
  if (known) return;
  const user = await createUser(t.db, "pieter", DUMMY_HASH);
  await t.db.insertInto("consultants").values({ id: PIETER, userId: user.id }).execute();
};

/** A meeting of `email` with the install's first consultant on Wednesday 2026-11-25. */
const bookMeeting = async (email: string, time = "10:00", name = "Sara Rahimi") =>
  createMeeting(t.db, {
    ...(await firstConsultantMeeting(t.db)),
    name,
    email,
    phone: "+31 6 1111 2222",
    date: "2026-11-25",
    time,
  });
type Slot = { date: string; time: string; consultant: string };
const staff = (id: number, action: "move" | "consultant", body: { was: Slot } & Record<string, unknown>) =>
  call(adminMeetings, `/api/admin/meetings/${id}/${action}`, {
    body,
    params: { id: String(id) },
    cookie,
    headers: { origin: ORIGIN },
  });

describe("a meeting's moves on the timeline", () => {
  test("a move by the visitor, one by staff and a hand-over each show with from, to and who, newest first", async () => {
    process.env.BOOKING_NOW = MONDAY;
    await pieterTakesMeetings();
    const email = address("Mover");
    const meeting = await bookMeeting(email);
    const own = meeting.consultant;
    // Someone else's meeting, moved too: never on her timeline.
    const other = await bookMeeting(address("bystander"), "11:00", "Bo Stander");

    const row = await t.db.selectFrom("meetings").selectAll().where("id", "=", meeting.id).executeTakeFirstOrThrow();
    const byVisitor = await call(manage, "/api/meetings/manage/move", {
      body: { date: "2026-11-26", time: "10:00" },
      headers: { authorization: `Bearer ${await signManageToken(row)}`, origin: ORIGIN },
    });
    expect(byVisitor.status, byVisitor.text).toBe(200);
    const byStaff = await staff(meeting.id, "move", {
      date: "2026-11-27",
      time: "11:00",
      was: { date: "2026-11-26", time: "10:00", consultant: own },
    });
    expect(byStaff.status, byStaff.text).toBe(200);
    const handed = await staff(meeting.id, "consultant", {
      consultant: PIETER,
      was: { date: "2026-11-27", time: "11:00", consultant: own },
    });
    expect(handed.status, handed.text).toBe(200);
    const otherMoved = await staff(other.id, "move", {
      date: "2026-11-26",
      time: "15:00",
      was: { date: "2026-11-25", time: "11:00", consultant: other.consultant },
    });
    expect(otherMoved.status, otherMoved.text).toBe(200);

    const answer = (await timeline(meetingReference(meeting.id))).json as PersonTimelineAnswer;
    const ref = meetingReference(meeting.id);
    const moves = answer.items.filter((i) => i.kind === "meeting-moved");
    expect(moves).toEqual([
      {
        kind: "meeting-moved",
        at: expect.any(String),
        reference: ref,
        from: { date: "2026-11-27", time: "11:00", consultant: own },
        to: { date: "2026-11-27", time: "11:00", consultant: PIETER },
        by: "admin",
        staff: "desk-anna",
      },
      {
        kind: "meeting-moved",
        at: expect.any(String),
        reference: ref,
        from: { date: "2026-11-26", time: "10:00", consultant: own },
        to: { date: "2026-11-27", time: "11:00", consultant: own },
        by: "admin",
        staff: "desk-anna",
      },
      {
        kind: "meeting-moved",
        at: expect.any(String),
        reference: ref,
        from: { date: "2026-11-25", time: "10:00", consultant: own },
        to: { date: "2026-11-26", time: "10:00", consultant: own },
        by: "visitor",
        staff: null,
      },
    ]);
    // Newest first with the rest: each move after the booking, the booking showing where it is now.
    const times = answer.items.map((i) => i.at);
    expect([...times].sort().reverse()).toEqual(times);
    const booked = answer.items.findIndex((i) => i.kind === "meeting");
    expect(answer.items.findLastIndex((i) => i.kind === "meeting-moved")).toBeLessThan(booked);
    // Where the meeting is now, and that it moved since it was booked (the panel says so).
    expect(answer.items[booked]).toMatchObject({ date: "2026-11-27", time: "11:00", moved: true });
    expect(JSON.stringify(answer)).not.toContain(meetingReference(other.id));
    expect(JSON.stringify(answer)).not.toContain("15:00");

    // Older than the staff's move: only the visitor's is left.
    const before = moves[1]!.at;
    const older = await call(people, `/api/admin/people/${ref}?before=${encodeURIComponent(before)}`, {
      cookie,
      params: { ref },
    });
    expect(older.status, older.text).toBe(200);
    const olderMoves = (older.json as PersonTimelineAnswer).items.filter((i) => i.kind === "meeting-moved");
    expect(olderMoves).toEqual([moves[2]]);

    // Two at a time, the pages add up to the whole timeline, none twice or lost.
    const viewer = (await t.db
      .selectFrom("users")
      .select("id")
      .where("username", "=", "desk-anna")
      .executeTakeFirst())!;
    const paged: TimelineItem[] = [];
    let cursor: string | null = null;
    do {
      const page: PersonTimelineAnswer = (await personTimeline(t.db, { kind: "meeting", id: meeting.id }, viewer.id, {
        limit: 2,
        ...(cursor ? { before: new Date(cursor) } : {}),
      }))!;
      expect(page.items.length).toBeLessThanOrEqual(2);
      paged.push(...page.items);
      cursor = page.next;
    } while (cursor);
    expect(paged).toEqual(answer.items);
  });
});

describe("notes about a person", () => {
  test("only the author edits or deletes a note (403 for another admin); each change is audited by reference", async () => {
    const id = await enquire(address("noted"));
    const ref = enquiryReference(id);
    const other = await sessionOf("desk-bram");
    const added = await addNote(ref, { note: "  Called back, wants a quote.  " });
    expect(added.status).toBe(201);
    const note = added.json.note;
    expect(note).toMatchObject({ reference: ref, text: "Called back, wants a quote.", by: "desk-anna", mine: true });

    expect((await changeNote(note.id, "PATCH", { note: "Bram's words" }, other)).status).toBe(403);
    expect((await changeNote(note.id, "DELETE", undefined, other)).status).toBe(403);
    const seen = (await timeline(ref, other)).json as PersonTimelineAnswer;
    expect(seen.items.find((i) => i.kind === "note")).toMatchObject({ note: { id: note.id, mine: false } });

    const edited = await changeNote(note.id, "PATCH", { note: "Quote sent." });
    expect(edited.status).toBe(200);
    expect(edited.json.note).toMatchObject({ id: note.id, text: "Quote sent.", mine: true });
    expect(Date.parse(edited.json.note.updatedAt)).toBeGreaterThanOrEqual(Date.parse(note.createdAt));
    expect((await changeNote(note.id, "DELETE")).status).toBe(200);
    expect((await changeNote(note.id, "DELETE")).status).toBe(404);

    const audited = await t.db
      .selectFrom("auditLog")
      .select(["action", "target", "actor"])
      .where("action", "like", "note.%")
      .where("target", "=", ref)
      .orderBy("id")
      .execute();
    expect(audited).toEqual([
      { action: "note.add", target: ref, actor: "desk-anna" },
      { action: "note.edit", target: ref, actor: "desk-anna" },
      { action: "note.delete", target: ref, actor: "desk-anna" },
    ]);
  });

  test("hostile notes: prototype keys, a megabyte, deep nesting, control characters, bad ids, an editor: 4xx, never 5xx", async () => {
    const id = await enquire(address("hostile"));
    const ref = enquiryReference(id);
    const editor = await sessionOf("writer-two", "editor");
    const raw = (text: string, path = `/api/admin/people/${ref}/notes`, method = "POST") =>
      call(notes, path, { method, raw: text, cookie, headers: { origin: ORIGIN, "content-type": "application/json" } });
    const statuses = [
      (await raw('{"note":"hi","__proto__":{"admin":true}}')).status,
      (await raw('{"__proto__":{"note":"x"}}')).status,
      (await raw('{"note":"hi","constructor":{"prototype":{"x":1}}}')).status,
      (await raw(JSON.stringify({ note: "x".repeat(1024 * 1024) }))).status,
      (await raw(JSON.stringify({ note: "x".repeat(NOTE_MAX_LENGTH + 1) }))).status,
      (await raw('{"note":' + "[".repeat(5000) + "]".repeat(5000) + "}")).status,
      (await raw('{"note":"bell\\u0007"}')).status,
      (await raw("{not json")).status,
      (await addNote(ref, { note: "" })).status,
      (await addNote("not-a-ref", { note: "hi" })).status,
      (await addNote("E-99999", { note: "hi" })).status,
      (await addNote("%E0%A4%A", { note: "hi" })).status,
      (await addNote(ref, { note: "hi" }, editor)).status,
      (await changeNote("abc", "PATCH", { note: "hi" })).status,
      (await changeNote("99999999999999999999999", "PATCH", { note: "hi" })).status,
      (await changeNote("-1", "DELETE")).status,
      (await changeNote("12345", "DELETE")).status,
    ];
    for (const status of statuses) {
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(500);
    }
    expect(statuses[0]).toBe(400);
    expect(statuses[12]).toBe(403);
    // Nothing was written by any of them.
    expect(await t.db.selectFrom("leadNotes").select("id").where("enquiryId", "=", id).execute()).toEqual([]);
  });

  test("two admins adding notes at once both keep theirs; an edit and a delete of one note at once never fail", async () => {
    const id = await enquire(address("race"));
    const ref = enquiryReference(id);
    const other = await sessionOf("desk-cas");
    const [a, b] = await Promise.all([addNote(ref, { note: "Anna's" }), addNote(ref, { note: "Cas's" }, other)]);
    expect([a.status, b.status]).toEqual([201, 201]);
    const [edit, del] = await Promise.all([
      changeNote(a.json.note.id, "PATCH", { note: "Anna's, edited" }),
      changeNote(a.json.note.id, "DELETE"),
    ]);
    expect([200, 404]).toContain(edit.status);
    expect(del.status).toBe(200);
  });
});

describe("erasure and the timeline", () => {
  test("erasing the address leaves nothing of it, or the name, in the notes, the messages, the lead events or the meeting changes", async () => {
    process.env.BOOKING_NOW = MONDAY;
    const email = address("Erase.Me");
    const first = await enquire(email, { firstName: "Roya", lastName: "Erasable" });
    const meeting = await bookMeeting(email.toLowerCase(), "14:00", "Roya Erasable");
    const moved = await staff(meeting.id, "move", {
      date: "2026-11-26",
      time: "14:00",
      was: { date: "2026-11-25", time: "14:00", consultant: meeting.consultant },
    });
    expect(moved.status, moved.text).toBe(200);
    const second = await enquire(email.toUpperCase(), { firstName: "Roya", lastName: "Erasable" });
    await call(submissions, `/api/admin/submissions/${first}`, {
      method: "PATCH",
      body: { version: 0, stage: "replied" },
      params: { id: String(first) },
      cookie,
      headers: { origin: ORIGIN },
    });
    await t.db
      .insertInto("leadMessages")
      .values([
        {
          enquiryId: second,
          direction: "in",
          fromAddress: email,
          toAddress: "office@bridgewise.eu",
          subject: "Roya Erasable here",
          textBody: `Write to ${email.toLowerCase()}`,
        },
        {
          enquiryId: second,
          direction: "out",
          fromAddress: "office@bridgewise.eu",
          toAddress: email,
          subject: "Hello Roya Erasable",
          textBody: "Welcome",
        },
      ])
      .execute();
    await addNote(enquiryReference(first), { note: `Roya Erasable, ${email}, prefers mornings` });
    // A note about someone else that names her: her address and name go, the rest stays.
    const bystander = await enquire(address("bystander"), { firstName: "Bo", lastName: "Stander" });
    await addNote(enquiryReference(bystander), { note: `Bo knows Roya Erasable (${email.toLowerCase()}).` });

    const exported = await call(privacy, "/api/admin/privacy/export", {
      body: { email },
      cookie,
      headers: { origin: ORIGIN },
    });
    expect(exported.json.notes).toHaveLength(1);
    expect(exported.json.messages.map((m: { direction: string }) => m.direction)).toEqual(["in", "out"]);
    expect(exported.json.leadEvents).toEqual([
      expect.objectContaining({ reference: enquiryReference(first), kind: "stage" }),
    ]);
    expect(exported.json.meetingChanges).toEqual([
      {
        reference: meetingReference(meeting.id),
        from: { date: "2026-11-25", time: "14:00", consultant: meeting.consultant },
        to: { date: "2026-11-26", time: "14:00", consultant: meeting.consultant },
        by: "admin",
        staff: "desk-anna",
        at: expect.any(String),
      },
    ]);

    const erased = await call(privacy, "/api/admin/privacy/erase", {
      body: { email },
      cookie,
      headers: { origin: ORIGIN },
    });
    expect(erased.status).toBe(200);

    const dump = JSON.stringify([
      await t.db.selectFrom("leadNotes").selectAll().execute(),
      await t.db.selectFrom("leadMessages").selectAll().execute(),
      await t.db.selectFrom("leadEvents").selectAll().execute(),
      await t.db.selectFrom("meetingChanges").selectAll().execute(),
    ]).toLowerCase();
    for (const trace of [email.toLowerCase(), "roya", "erasable", "+31 6 1111 2222"]) expect(dump).not.toContain(trace);
    // The move stays with the anonymised meeting, as its lead events stay with the enquiry.
    expect(await t.db.selectFrom("meetingChanges").select("by").where("meetingId", "=", meeting.id).execute()).toEqual([
      { by: "admin" },
    ]);
    const kept = await t.db.selectFrom("leadNotes").select("body").where("enquiryId", "=", bystander).execute();
    expect(kept).toEqual([{ body: "Bo knows [name removed] ([address removed])." }]);

    const after = (await timeline(enquiryReference(first))).json as PersonTimelineAnswer;
    expect(after).toEqual({
      person: { name: "", email: "", reference: enquiryReference(first), erased: true },
      newsletter: { status: "none", since: null },
      items: [],
      truncated: false,
      next: null,
    });
    expect((await addNote(enquiryReference(first), { note: "hi" })).status).toBe(409);
  });
});
