import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { simpleParser } from "mailparser";
import { sql } from "kysely";
import { beforeEach, describe, expect, test, vi } from "vitest";
import { call, ORIGIN, formBody, apiTestbed, type ApiTestDatabase } from "./harness.ts";
import { invite, TestMailServer, type ReceivedMessage } from "./mail-server.ts";
import contact from "../contact.ts";
import meetings from "../meetings.ts";
import adminMeetings from "../admin-meetings.ts";
import enquiries from "../admin-submissions.ts";
import outboxRetry, { config as retryConfig } from "../outbox-retry.ts";
import { deliverDue } from "../_lib/mail/outbox.ts";
import { mailTransport } from "../_lib/mail/transport.ts";
import { enqueue } from "#db/outbox.repository.ts";
import { formatDate, formatTime } from "#shared/format.ts";

const COMPANY = "hello@bridgewise.eu";
const LEADS = "leads@bridgewise.test";
const smtp = new TestMailServer();
let t: ApiTestDatabase;
let cookie: string;

// Many submissions from one test address: the abuse limits have their own tests (abuse.test.ts).
apiTestbed({ bookingAsBefore: true, admin: "mail-admin", smtp, rateLimitOff: true }, (bed) => ({ t, cookie } = bed));
beforeEach(() => {
  process.env.SMTP_URL = smtp.url;
  process.env.NOTIFY_EMAIL = LEADS;
  // Monday 2026-11-23, 10:10 in Amsterdam.
  process.env.BOOKING_NOW = "2026-11-23T09:10:00Z";
  smtp.messages.length = 0;
  smtp.refuse = false;
});

const ref = (prefix: "E" | "M", id: number) => `${prefix}-${String(id).padStart(5, "0")}`;
/** Our reference in a visitor's subject: in Persian (right to left) it is a left-to-right isolate. */
const refIn = (lang: "en" | "nl" | "fa", prefix: "E" | "M", id: number) =>
  lang === "fa" ? `\u2066${ref(prefix, id)}\u2069` : ref(prefix, id);
const outbox = (where: { enquiryId: number } | { meetingId: number }) =>
  t.db
    .selectFrom("emailOutbox")
    .selectAll()
    .where(
      "enquiryId" in where ? "enquiryId" : "meetingId",
      "=",
      "enquiryId" in where ? where.enquiryId : where.meetingId,
    )
    .orderBy("id")
    .execute();
/** Time passes: every waiting message of the record is due now. */
const makeDue = (where: { enquiryId: number } | { meetingId: number }) =>
  t.db
    .updateTable("emailOutbox")
    .set({ nextAttemptAt: sql<Date>`now()` })
    .where(
      "enquiryId" in where ? "enquiryId" : "meetingId",
      "=",
      "enquiryId" in where ? where.enquiryId : where.meetingId,
    )
    .execute();
const patchMeeting = (id: number, isConfirmed: boolean) =>
  call(adminMeetings, `/api/admin/meetings/${id}`, {
    method: "PATCH",
    body: { isConfirmed },
    params: { id: String(id) },
    cookie,
    headers: { origin: ORIGIN },
  });

/** The header block of a raw message (everything before the first empty line). */
const headerBlock = (m: ReceivedMessage) => m.raw.split(/\r?\n\r?\n/)[0];

const enquiry = {
  firstName: "Sara",
  lastName: "Rahimi",
  email: "sara@example.com",
  company: "Arvan Cloud",
  service: "startup-visa",
  message: "We want to open an office in Amsterdam next spring.",
};
const booking = { name: "Leila Ahmadi", email: "leila@example.com", phone: "+98 912 345 6789" };

const EXPECTED = {
  en: {
    enquiry: "We have received your message",
    booked: (when: string) => `We have received your meeting request for ${when}`,
    confirmed: (when: string) => `Your meeting on ${when} is confirmed`,
    pending: (when: string) => `Your meeting on ${when} is not confirmed yet`,
    dir: "ltr",
    name: "English",
  },
  nl: {
    enquiry: "We hebben je bericht ontvangen",
    booked: (when: string) => `We hebben je afspraakverzoek voor ${when} ontvangen`,
    confirmed: (when: string) => `Je afspraak op ${when} is bevestigd`,
    pending: (when: string) => `Je afspraak op ${when} is nog niet bevestigd`,
    dir: "ltr",
    name: "Dutch",
  },
  fa: {
    enquiry: "پیام شما به دست ما رسید",
    booked: (when: string) => `درخواست جلسهٔ شما برای ${when} به دست ما رسید`,
    confirmed: (when: string) => `جلسهٔ شما در ${when} تأیید شد`,
    pending: (when: string) => `جلسهٔ شما در ${when} هنوز تأیید نشده است`,
    dir: "rtl",
    name: "Persian",
  },
} as const;

/** A meeting's day and time as the visitor's subject line gives it (Jalali and Gregorian in Persian). */
const when = (lang: keyof typeof EXPECTED, date: string, time: string) =>
  lang === "fa"
    ? `${formatDate("fa", date, "short")}، ساعت ${formatTime("fa", time)}`
    : `${formatDate(lang, date, "short")}${lang === "nl" ? " om " : ", "}${time}`;

describe("an enquiry notifies the company and acknowledges the visitor", () => {
  test.each(["en", "nl", "fa"] as const)("in %s", async (lang) => {
    const visitor = `sara.${lang}@example.com`;
    const res = await call(contact, "/api/contact", { body: { ...enquiry, email: visitor, language: lang } });
    expect(res.status).toBe(201);
    const id = res.json.id as number;
    await smtp.waitFor(2);

    const company = smtp.to(LEADS);
    expect(company.parsed.subject).toBe(`New enquiry ${ref("E", id)}: Startup Visa (${EXPECTED[lang].name})`);
    expect(company.parsed.replyTo?.value.map((a) => a.address)).toEqual([visitor]);
    expect(company.parsed.from?.value[0]).toEqual({ name: "Bridgewise", address: COMPANY });
    for (const value of [
      "Sara",
      "Rahimi",
      visitor,
      "Arvan Cloud",
      "Startup Visa (startup-visa)",
      enquiry.message,
      `Language: ${EXPECTED[lang].name} (${lang})`,
      `https://bridgewise.eu/admin/person?ref=${ref("E", id)}`,
    ]) {
      expect(company.parsed.text).toContain(value);
    }
    // The link opens the person's page by the reference (no address in the URL).
    const link = `https://bridgewise.eu/admin/person?ref=${ref("E", id)}`;
    expect(company.parsed.text).toContain(`Open this enquiry: ${link}`);
    expect(company.parsed.html).toContain(`<a href="${link}"`);

    const ack = smtp.to(visitor);
    expect(ack.parsed.subject).toBe(`${EXPECTED[lang].enquiry} (${refIn(lang, "E", id)})`);
    expect(ack.parsed.replyTo?.value.map((a) => a.address)).toEqual([COMPANY]);
    expect(ack.parsed.text).toContain(ref("E", id));
    expect(ack.parsed.html).toContain(`<html lang="${lang}" dir="${EXPECTED[lang].dir}">`);
    expect(ack.parsed.headers.get("auto-submitted")).toBe("auto-generated");
    // The acknowledgement echoes none of the free text the visitor typed.
    expect(ack.parsed.text).not.toContain(enquiry.message);

    const [stored] = (await call(enquiries, "/api/admin/submissions", { cookie })).json.filter(
      (s: { id: number }) => s.id === id,
    );
    expect(stored).toMatchObject({ language: lang, emailStatus: "sent" });
  });

  test("the language comes from the page the form was sent from when the payload does not name it", async () => {
    const res = await call(contact, "/api/contact", {
      body: { ...enquiry, email: "page@example.com" },
      headers: { referer: `${ORIGIN}/nl/startup-visa/` },
    });
    await smtp.waitFor(2);
    expect(smtp.to("page@example.com").parsed.subject).toBe(`${EXPECTED.nl.enquiry} (${ref("E", res.json.id)})`);
  });

  test("the plain form post (no JavaScript) speaks the page's language too", async () => {
    const form = new URLSearchParams(formBody({ ...enquiry, email: "form@example.com", lang: "fa" })).toString();
    const res = await call(contact, "/api/contact", {
      raw: form,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.headers.get("location")).toBe("/fa/enquiry/sent/");
    await smtp.waitFor(2);
    expect(smtp.to("form@example.com").parsed.html).toContain('dir="rtl"');
  });

  test("without NOTIFY_EMAIL the company address of the site config hears of it", async () => {
    delete process.env.NOTIFY_EMAIL;
    await call(contact, "/api/contact", { body: { ...enquiry, email: "plain@example.com" } });
    await smtp.waitFor(2);
    expect(smtp.to(COMPANY).parsed.subject).toMatch(/^New enquiry E-\d{5}/);
  });
});

describe("a booking notifies the company and sends the visitor an invite that follows the meeting's state", () => {
  const slots = { en: "11:00", nl: "11:30", fa: "12:00" } as const;

  test.each(["en", "nl", "fa"] as const)("in %s", async (lang) => {
    const visitor = `leila.${lang}@example.com`;
    const res = await call(meetings, "/api/meetings/schedule", {
      body: { ...booking, email: visitor, date: "2026-11-24", time: slots[lang], language: lang },
    });
    expect(res.status).toBe(201);
    expect(res.json.data.language).toBe(lang);
    const id = res.json.data.id as number;
    await smtp.waitFor(2);

    const company = smtp.to(LEADS);
    expect(company.parsed.subject).toMatch(
      new RegExp(`^New meeting request ${ref("M", id)}: .*24 Nov 2026, ${slots[lang]} \\(${EXPECTED[lang].name}\\)$`),
    );
    expect(company.parsed.replyTo?.value.map((a) => a.address)).toEqual([visitor]);
    for (const value of [
      "Leila Ahmadi",
      visitor,
      "+98 912 345 6789",
      slots[lang],
      `Language: ${EXPECTED[lang].name} (${lang})`,
      `https://bridgewise.eu/admin/person?ref=${ref("M", id)}`,
    ]) {
      expect(company.parsed.text).toContain(value);
    }

    const ack = smtp.to(visitor);
    const day = when(lang, "2026-11-24", slots[lang]);
    expect(ack.parsed.subject).toBe(`${EXPECTED[lang].booked(day)} (${refIn(lang, "M", id)})`);
    if (lang === "fa") {
      // Persian visitors read the Jalali date, with the Gregorian one beside it, in Persian digits.
      expect(ack.parsed.subject).toContain("۳ آذر ۱۴۰۵ (۲۴ نوامبر ۲۰۲۶)");
      expect(ack.parsed.html).toContain("سه‌شنبه ۳ آذر ۱۴۰۵ (۲۴ نوامبر ۲۰۲۶)");
      expect(ack.parsed.text).toContain("سه‌شنبه ۳ آذر ۱۴۰۵ (۲۴ نوامبر ۲۰۲۶)");
    }
    expect(ack.parsed.html).toContain(`dir="${EXPECTED[lang].dir}"`);
    const first = invite(ack);
    // 2026-11-24 is in winter time: Amsterdam is UTC+1.
    const utc = `2026-11-24T${String(Number(slots[lang].slice(0, 2)) - 1).padStart(2, "0")}:${slots[lang].slice(3)}:00.000Z`;
    expect(first).toEqual({
      method: "REQUEST",
      tzid: "Europe/Amsterdam",
      start: utc,
      minutes: 30,
      uid: `meeting-${id}@bridgewise.eu`,
      sequence: 0,
      status: "TENTATIVE",
      organizer: `mailto:${COMPANY}`,
      attendees: [`mailto:${visitor}`],
    });

    smtp.messages.length = 0;
    const confirmed = await patchMeeting(id, true);
    expect(confirmed.status).toBe(200);
    expect(confirmed.json).toMatchObject({ id, isConfirmed: true, language: lang, emailStatus: "sent" });
    const [confirmation] = await smtp.waitFor(1);
    expect(confirmation.envelope.to).toEqual([visitor]);
    expect(confirmation.parsed.subject).toBe(`${EXPECTED[lang].confirmed(day)} (${refIn(lang, "M", id)})`);
    expect(invite(confirmation)).toMatchObject({ uid: first.uid, start: utc, sequence: 1, status: "CONFIRMED" });

    // Confirming again changes nothing and sends nothing.
    expect((await patchMeeting(id, true)).json.isConfirmed).toBe(true);

    smtp.messages.length = 0;
    expect((await patchMeeting(id, false)).json).toMatchObject({ isConfirmed: false, emailStatus: "sent" });
    const [notice] = await smtp.waitFor(1);
    expect(notice.parsed.subject).toBe(`${EXPECTED[lang].pending(day)} (${refIn(lang, "M", id)})`);
    expect(invite(notice)).toMatchObject({ uid: first.uid, sequence: 2, status: "TENTATIVE" });
    expect(smtp.messages).toHaveLength(1);
  });
});

describe("a visitor's input cannot inject headers or links", () => {
  // Single-line fields refuse line breaks (src/shared/text.ts), so header-like text in them stays on
  // its line; the message keeps its line breaks.
  const hostile = {
    ...enquiry,
    firstName: "Eve Bcc: victim@example.com",
    lastName: "Mallory To: victim2@example.com",
    company: "<b>Evil</b> Corp X-Injected: yes",
    email: "eve@example.com",
    message: "Subject: hi\n\n<a href='https://evil.example'>click</a> https://evil.example\r\nCc: victim3@example.com",
  };

  test("a line break in a single-line field is refused (400 naming it): nothing stored, nothing mailed", async () => {
    const emails = async () => (await t.db.selectFrom("emailOutbox").select("id").execute()).length;
    const before = await emails();
    const res = await call(contact, "/api/contact", {
      body: {
        ...hostile,
        firstName: "Eve\r\nBcc: victim@example.com",
        lastName: "Mallory\nTo: victim2@example.com",
        company: "<b>Evil</b> Corp\r\nX-Injected: yes",
      },
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.json.errors).sort()).toEqual(["company", "firstName", "lastName"]);
    const booked = await call(meetings, "/api/meetings/schedule", {
      body: {
        ...booking,
        name: 'Eve"\r\nBcc: victim@example.com\r\nATTENDEE:mailto:victim@example.com',
        email: "eve@example.com",
        date: "2026-11-25",
        time: "10:00",
      },
    });
    expect(booked.status).toBe(400);
    expect(Object.keys(booked.json.errors)).toEqual(["name"]);
    expect(await emails()).toBe(before);
  });

  test("an enquiry reaches exactly the intended recipients, with fixed subjects and no visitor link", async () => {
    const res = await call(contact, "/api/contact", { body: hostile });
    expect(res.status).toBe(201);
    await smtp.waitFor(2);
    expect(smtp.messages.map((m) => m.envelope.to).sort()).toEqual([["eve@example.com"], [LEADS]]);
    for (const m of smtp.messages) {
      expect(headerBlock(m)).not.toMatch(/victim|evil|X-Injected|^Bcc:|^Cc:/im);
      expect(m.parsed.headers.has("bcc")).toBe(false);
      expect(m.parsed.headers.has("cc")).toBe(false);
      expect(m.parsed.headers.has("x-injected")).toBe(false);
      expect(m.parsed.html).not.toMatch(/<a\b[^>]*evil/i);
      expect(m.parsed.html).not.toContain("<b>Evil</b>");
    }
    const company = smtp.to(LEADS);
    expect(company.parsed.subject).toBe(`New enquiry ${ref("E", res.json.id)}: Startup Visa (English)`);
    // The company still reads every word, as text…
    expect(company.parsed.text).toContain(hostile.message.trim().replace(/\r\n/g, "\n"));
    // Single-line fields stay on one line, so nothing in the body even looks like a header.
    expect(company.parsed.text).toContain("First name: Eve Bcc: victim@example.com\n");
    expect(company.parsed.html).toContain("&#60;b&#62;Evil&#60;/b&#62;".replace("/", "<span>/</span>"));
    // …but no mail client finds a URL in the HTML to turn into a link.
    expect(company.parsed.html).not.toContain("https://evil.example");
    const ack = smtp.to("eve@example.com");
    expect(ack.parsed.subject).toBe(`We have received your message (${ref("E", res.json.id)})`);
    // A "name" that is not a name is not repeated to the address it was sent with.
    expect(ack.parsed.text).not.toMatch(/Eve|victim|evil/);
    expect(ack.parsed.text?.startsWith("Hello,")).toBe(true);
  });

  test("a booking's name cannot add recipients, headers or calendar attendees", async () => {
    const res = await call(meetings, "/api/meetings/schedule", {
      body: {
        ...booking,
        name: 'Eve" Bcc: victim@example.com ATTENDEE:mailto:victim@example.com;',
        email: "eve@example.com",
        date: "2026-11-25",
        time: "10:00",
      },
    });
    expect(res.status).toBe(201);
    await smtp.waitFor(2);
    expect(smtp.messages.map((m) => m.envelope.to).sort()).toEqual([["eve@example.com"], [LEADS]]);
    for (const m of smtp.messages) expect(headerBlock(m)).not.toMatch(/victim|^Bcc:/im);
    expect(invite(smtp.to("eve@example.com")).attendees).toEqual(["mailto:eve@example.com"]);
  });
});

describe("delivery survives a mail server that refuses or vanishes", () => {
  test("refused recipients: the enquiry is stored, answered 201, and its emails retried until they go", async () => {
    smtp.refuse = "rcpt";
    const res = await call(contact, "/api/contact", { body: { ...enquiry, email: "retry1@example.com" } });
    expect(res.status).toBe(201);
    const enquiryId = res.json.id as number;

    const failed = await outbox({ enquiryId });
    expect(failed).toHaveLength(2);
    for (const row of failed) {
      expect(row).toMatchObject({ status: "failed", attempts: 1 });
      expect(row.lastError).toMatch(/450/);
      // First retry one minute later.
      expect(row.nextAttemptAt.getTime() - Date.now()).toBeGreaterThan(45_000);
    }
    const listed = (await call(enquiries, "/api/admin/submissions", { cookie })).json.find(
      (s: { id: number }) => s.id === enquiryId,
    );
    expect(listed).toMatchObject({ firstName: "Sara", emailStatus: "failing" });

    // Not due yet: a retry run now sends nothing.
    smtp.refuse = false;
    expect(await deliverDue(t.db, mailTransport(), { ids: failed.map((r) => r.id) })).toMatchObject({
      sent: 0,
      failed: 0,
    });

    await makeDue({ enquiryId });
    expect(await deliverDue(t.db, mailTransport(), { ids: failed.map((r) => r.id) })).toMatchObject({
      sent: 2,
      failed: 0,
    });
    await smtp.waitFor(2);
    expect(smtp.to("retry1@example.com").parsed.subject).toContain(ref("E", enquiryId));
    expect((await outbox({ enquiryId })).map((r) => [r.status, r.attempts, r.lastError])).toEqual([
      ["sent", 2, null],
      ["sent", 2, null],
    ]);
    const after = (await call(enquiries, "/api/admin/submissions", { cookie })).json.find(
      (s: { id: number }) => s.id === enquiryId,
    );
    expect(after.emailStatus).toBe("sent");
  });

  test("refused data: a booking is kept, and a second failure waits longer", async () => {
    smtp.refuse = "data";
    const res = await call(meetings, "/api/meetings/schedule", {
      body: { ...booking, email: "retry2@example.com", date: "2026-11-26", time: "09:00" },
    });
    expect(res.status).toBe(201);
    const meetingId = res.json.data.id as number;
    expect((await outbox({ meetingId })).map((r) => r.status)).toEqual(["failed", "failed"]);

    await makeDue({ meetingId });
    await deliverDue(t.db, mailTransport());
    const twice = await outbox({ meetingId });
    for (const row of twice) {
      expect(row).toMatchObject({ status: "failed", attempts: 2 });
      expect(row.lastError).toMatch(/451/);
      expect(row.nextAttemptAt.getTime() - Date.now()).toBeGreaterThan(105_000);
    }

    smtp.refuse = false;
    await makeDue({ meetingId });
    expect((await deliverDue(t.db, mailTransport())).sent).toBe(2);
    expect(invite(smtp.to("retry2@example.com")).sequence).toBe(0);
  });

  test("a server that is gone: 201 all the same; the scheduled function sends once it is back", async () => {
    await smtp.stop();
    try {
      const res = await call(contact, "/api/contact", { body: { ...enquiry, email: "retry3@example.com" } });
      expect(res.status).toBe(201);
      const enquiryId = res.json.id as number;
      const rows = await outbox({ enquiryId });
      expect(rows.map((r) => r.status)).toEqual(["failed", "failed"]);
      expect(rows[0].lastError).toMatch(/ECONNREFUSED/);
      expect(await t.db.selectFrom("enquiries").select("email").where("id", "=", enquiryId).executeTakeFirst()).toEqual(
        { email: "retry3@example.com" },
      );

      await smtp.start();
      await makeDue({ enquiryId });
      expect(retryConfig.schedule).toBe("*/15 * * * *");
      await outboxRetry();
      await smtp.waitFor(2);
      expect((await outbox({ enquiryId })).map((r) => r.status)).toEqual(["sent", "sent"]);
    } finally {
      await smtp.start().catch(() => undefined);
    }
  });

  test("a slow mail server holds the answer up by about 3 seconds at most, and the emails still go", async () => {
    smtp.delayMs = 4_000;
    try {
      const started = performance.now();
      const res = await call(contact, "/api/contact", { body: { ...enquiry, email: "slow@example.com" } });
      expect(res.status).toBe(201);
      expect(performance.now() - started).toBeLessThan(5_000);
      await smtp.waitFor(2, 15_000);
      await expect
        .poll(async () => (await outbox({ enquiryId: res.json.id })).map((r) => r.status))
        .toEqual(["sent", "sent"]);
    } finally {
      smtp.delayMs = 0;
    }
  }, 30_000);
});

describe("overlapping retry runs", () => {
  test("three runs started together over 20 due messages send each exactly once", async () => {
    const ids = await enqueue(
      t.db,
      Array.from({ length: 20 }, (_, i) => ({
        kind: "test",
        to: `batch${i}@example.com`,
        subject: `Batch ${i}`,
        text: `Message ${i}`,
        html: `<p>Message ${i}</p>`,
      })),
    );
    const runs = await Promise.all([1, 2, 3].map(() => deliverDue(t.db, mailTransport(), { ids })));
    expect(runs.reduce((sum, r) => sum + r.sent, 0)).toBe(20);
    await smtp.waitFor(20);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const recipients = smtp.messages.map((m) => m.envelope.to.join(",")).sort();
    expect(recipients).toEqual(Array.from({ length: 20 }, (_, i) => `batch${i}@example.com`).sort());
    expect(new Set(smtp.messages.map((m) => m.parsed.messageId)).size).toBe(20);
  });
});

describe("a send that ends after its run stopped waiting", () => {
  test("is recorded when the server accepts it, so it is not sent again once its claim runs out", async () => {
    const ids = await enqueue(t.db, [
      { kind: "test", to: "late@example.com", subject: "Late", text: "Late", html: "<p>Late</p>" },
    ]);
    smtp.delayMs = 1_000;
    try {
      const run = await deliverDue(t.db, mailTransport(), { ids, deadlineMs: 100 });
      expect(run).toMatchObject({ sent: 0, unfinished: 1 });
      await smtp.waitFor(1);
      const status = async () =>
        (await t.db.selectFrom("emailOutbox").select("status").where("id", "=", ids[0]).executeTakeFirstOrThrow())
          .status;
      const until = Date.now() + 10_000;
      while ((await status()) === "sending" && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      // LOCK_MINUTES later the claim of a message still `sending` runs out, and the next run takes it.
      await sql`UPDATE email_outbox SET locked_until = now() - interval '1 second' WHERE id = ${ids[0]}`.execute(t.db);
      const next = await deliverDue(t.db, mailTransport(), { ids });
      expect(next.sent).toBe(0);
      expect(smtp.messages.map((m) => m.envelope.to.join(","))).toEqual(["late@example.com"]);
      expect(await status()).toBe("sent");
    } finally {
      smtp.delayMs = 0;
    }
  });
});

describe("without SMTP_URL", () => {
  test("each message is written to DATA_DIR/outbox as an .eml file, with one log line", async () => {
    delete process.env.SMTP_URL;
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    try {
      const res = await call(meetings, "/api/meetings/schedule", {
        body: { ...booking, email: "file@example.com", date: "2026-11-27", time: "15:00", language: "fa" },
      });
      expect(res.status).toBe(201);
      const dir = path.join(process.env.DATA_DIR!, "outbox");
      const files = (await readdir(dir)).filter((f) => f.endsWith(".eml"));
      const parsed = await Promise.all(files.map(async (f) => simpleParser(await readFile(path.join(dir, f)))));
      const ack = parsed.find((m) => m.to && !Array.isArray(m.to) && m.to.text === "file@example.com");
      expect(ack?.subject).toBe(
        `${EXPECTED.fa.booked(when("fa", "2026-11-27", "15:00"))} (${refIn("fa", "M", res.json.data.id)})`,
      );
      expect(ack?.attachments.some((a) => a.filename === "invite.ics")).toBe(true);
      expect(parsed.some((m) => m.to && !Array.isArray(m.to) && m.to.text === LEADS)).toBe(true);
      const lines = log.mock.calls.map((c) => String(c[0])).filter((l) => l.startsWith("[mail]"));
      expect(lines.filter((l) => l.includes("file@example.com"))).toHaveLength(1);
      expect(smtp.messages).toHaveLength(0);
    } finally {
      log.mockRestore();
    }
  });

  test("in production nothing is written: the messages wait, failing, and say why", async () => {
    delete process.env.SMTP_URL;
    process.env.NODE_ENV = "production";
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      const res = await call(contact, "/api/contact", { body: { ...enquiry, email: "prod@example.com" } });
      expect(res.status).toBe(201);
      const rows = await outbox({ enquiryId: res.json.id });
      expect(rows.map((r) => r.status)).toEqual(["failed", "failed"]);
      expect(rows[0].lastError).toContain("SMTP_URL is not set");
    } finally {
      process.env.NODE_ENV = "test";
      warn.mockRestore();
    }
  });
});
