/**
 * The lead desk: a reply sent from the panel (template preview, the staff's text, the outbox .eml with
 * its threading headers and Reply-To, right to left for Persian) and the lead's answer coming back
 * through Mailgun's route (a real MIME message, signed, as multipart/form-data), with every hostile
 * post refused or dropped and nothing stored.
 */
import { createHmac, randomBytes } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { Context } from "@netlify/functions";
import { simpleParser } from "mailparser";
import MailComposer from "nodemailer/lib/mail-composer/index.js";
import { beforeEach, describe, expect, test } from "vitest";
import { apiTestbed, call, ORIGIN, type ApiTestDatabase } from "./harness.ts";
import contact from "../contact.ts";
import replies from "../admin-replies.ts";
import inbound, { MAX_INBOUND_BYTES } from "../inbound-mailgun.ts";
import privacy from "../admin-privacy.ts";
import { deliverDue } from "../_lib/mail/outbox.ts";
import { mailTransport } from "../_lib/mail/transport.ts";
import { replyAddress } from "../_lib/mail/replies.ts";
import { DUMMY_HASH } from "#db/admins.ts";
import { createUser } from "#db/users.repository.ts";

const KEY = "test-mailgun-signing-key-0123456789";
const HOSTILE_NAME = "<script>alert(1)</script>{{reference}}";
let t: ApiTestDatabase;
let cookie: string;
apiTestbed({ admin: "desk-admin", rateLimitOff: true }, (bed) => ({ t, cookie } = bed));
beforeEach(() => {
  process.env.MAILGUN_SIGNING_KEY = KEY;
  delete process.env.REPLY_DOMAIN;
});

const newLead = async (fields: Record<string, string> = {}) => {
  const res = await call(contact, "/api/contact", {
    body: {
      firstName: "Sara",
      lastName: "Rahimi",
      email: `lead-${randomBytes(4).toString("hex")}@example.com`,
      company: "Arvan",
      service: "startup-visa",
      message: "We want to open an office in Amsterdam next spring.",
      language: "en",
      ...fields,
    },
  });
  expect(res.status).toBe(201);
  return res.json.id as number;
};
const replyPath = (id: number) => `/api/admin/submissions/${id}/reply`;
const desk = (id: number, query = "") =>
  call(replies, `${replyPath(id)}${query}`, { cookie, params: { id: String(id) } });
const send = (id: number, body: unknown) =>
  call(replies, replyPath(id), { cookie, params: { id: String(id) }, body, headers: { origin: ORIGIN } });
const messages = (enquiryId: number) =>
  t.db.selectFrom("leadMessages").selectAll().where("enquiryId", "=", enquiryId).orderBy("id").execute();

/** Sends what is due and reads the .eml files of the outbox folder, newest last. */
async function outboxEmails() {
  await deliverDue(t.db, mailTransport());
  const dir = path.join(process.env.DATA_DIR!, "outbox");
  const files = (await readdir(dir)).filter((f) => f.endsWith(".eml")).sort();
  return Promise.all(
    files.map(async (f) => {
      const raw = await readFile(path.join(dir, f));
      return { raw: raw.toString("utf8"), mail: await simpleParser(raw) };
    }),
  );
}

describe("replying from the panel", () => {
  test("previews a template for the lead in its language, with every value escaped in the HTML", async () => {
    const id = await newLead({ firstName: HOSTILE_NAME, language: "fa" });
    const res = await desk(id, "?template=firstAnswer");
    expect(res.status).toBe(200);
    expect(res.json.lead).toMatchObject({ id, language: "fa", dir: "rtl", erased: false });
    const { subject, html } = res.json.preview;
    // Latin runs are left-to-right isolates in Persian ("(E-00042)" keeps its order); compared without them.
    const text = (res.json.preview.text as string).replace(/[\u2066-\u2069]/g, "");
    expect(res.json.preview.text).toContain("\u2066https://bridgewise.eu/fa/#contact\u2069");
    expect(subject).toContain(`E-${String(id).padStart(5, "0")}`);
    expect(subject).toContain("درخواست شما");
    // The name as typed, its {{reference}} not expanded (one pass).
    expect(text.startsWith(`${HOSTILE_NAME} گرامی،`)).toBe(true);
    expect(text).toContain("/fa/#contact");
    expect(html).toContain('dir="rtl"');
    expect(html).not.toContain("<script>");
    expect(html.replace(/[\u2066-\u2069]/g, "")).toContain("&#60;script&#62;alert(1)&#60;/script&#62;{{reference}}");
    expect((await desk(id, "?template=__proto__")).status).toBe(400);
    expect((await desk(999_999)).status).toBe(404);
  });

  test("sends the staff's text through the outbox, threaded under the acknowledgement, Reply-To owner and lead address", async () => {
    const id = await newLead({ firstName: HOSTILE_NAME, language: "fa" });
    const preview = (await desk(id, "?template=askDocuments")).json.preview;
    const text = `${preview.text}\n\nP.S. <b>bold</b> {{bookingLink}} & more`;
    const res = await send(id, { subject: preview.subject, text });
    expect(res.status).toBe(201);
    expect(res.json.message).toMatchObject({ direction: "out", sentBy: "desk-admin", subject: preview.subject });

    const emails = await outboxEmails();
    const { email } = await t.db.selectFrom("enquiries").select("email").where("id", "=", id).executeTakeFirstOrThrow();
    const toLead = emails.filter((e) => e.mail.to && "text" in e.mail.to && e.mail.to.text === email);
    expect(toLead).toHaveLength(2);
    const ack = toLead.find((e) => e.mail.subject !== preview.subject);
    const reply = emails.find((e) => e.mail.subject === preview.subject)!;
    expect(ack?.mail.messageId).toMatch(/^<outbox-\d+@/);
    expect(reply.mail.messageId).toMatch(/^<outbox-\d+@/);
    expect(reply.mail.messageId).not.toBe(ack!.mail.messageId);
    expect(reply.mail.inReplyTo).toBe(ack!.mail.messageId);
    expect(reply.mail.references).toBe(ack!.mail.messageId);
    const replyTo = reply.mail.replyTo!.value.map((a) => a.address);
    expect(replyTo).toEqual(["hello@bridgewise.eu", replyAddress(id)]);
    expect(replyAddress(id)).toMatch(new RegExp(`^reply\\+${id}-[0-9a-f]{20}@reply\\.`));
    expect(reply.raw).not.toMatch(/^Auto-Submitted:/m);
    // Persian: the HTML part is right to left; the staff's text is text, never markup.
    expect(reply.mail.html).toContain('dir="rtl"');
    expect(reply.mail.html).toContain('lang="fa"');
    expect(reply.mail.html).not.toMatch(/<b>|<script>/);
    expect(reply.mail.html).toContain("&#60;b&#62;bold&#60;/b&#62; {{bookingLink}} &#38; more");
    expect(reply.mail.text?.trim()).toBe(text);

    const stored = await messages(id);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      direction: "out",
      messageId: reply.mail.messageId,
      inReplyTo: ack!.mail.messageId,
    });
    const audit = await t.db.selectFrom("auditLog").selectAll().where("action", "=", "lead.reply").execute();
    expect(audit.at(-1)).toMatchObject({
      target: String(id),
      detail: { reference: `E-${String(id).padStart(5, "0")}` },
    });
    // The desk lists it.
    expect((await desk(id)).json.messages.map((m: { direction: string }) => m.direction)).toEqual(["out"]);
  });

  test("a new lead moves to replied with the reply (once); the owner's notice address and name are used", async () => {
    const id = await newLead();
    const owner = await createUser(t.db, "owner-ana", DUMMY_HASH);
    await t.db.updateTable("users").set({ email: "ana@bridgewise.test" }).where("id", "=", owner.id).execute();
    await t.db.updateTable("enquiries").set({ ownerId: owner.id }).where("id", "=", id).execute();
    const preview = (await desk(id, "?template=proposeMeeting")).json.preview;
    expect(preview.text).toContain("owner-ana, Bridgewise");
    expect((await send(id, { subject: preview.subject, text: preview.text })).status).toBe(201);
    expect((await send(id, { subject: "Again", text: "A second reply" })).status).toBe(201);
    const lead = await t.db
      .selectFrom("enquiries")
      .select(["stage", "repliedAt", "version"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(lead.stage).toBe("replied");
    expect(lead.repliedAt).not.toBeNull();
    const events = await t.db.selectFrom("leadEvents").selectAll().where("enquiryId", "=", id).execute();
    expect(events.map((e) => [e.kind, e.fromValue, e.toValue, e.actorUsername])).toEqual([
      ["stage", "new", "replied", "desk-admin"],
    ]);
    // Both the reply and the move it made are audited naming the lead's reference.
    const reference = `E-${String(id).padStart(5, "0")}`;
    const audited = await t.db
      .selectFrom("auditLog")
      .select(["action", "target", "detail"])
      .where("target", "=", String(id))
      .orderBy("id")
      .execute();
    expect(audited.map((a) => [a.action, a.detail.reference])).toEqual([
      ["lead.reply", reference],
      ["lead.status", reference],
      ["lead.reply", reference],
    ]);
    const emails = await outboxEmails();
    const reply = emails.find((e) => e.mail.subject === preview.subject)!;
    expect(reply.mail.replyTo!.value.map((a) => a.address)).toEqual(["ana@bridgewise.test", replyAddress(id)]);
  });

  test("refuses an empty, oversized, control-character or prototype-key body, and a cross-site post", async () => {
    const id = await newLead();
    for (const body of [
      {},
      { subject: "", text: "x" },
      { subject: "Hi", text: "" },
      { subject: "Hi\r\nBcc: x@example.com", text: "x" },
      { subject: "Hi", text: "x".repeat(20_001) },
      JSON.parse('{"subject":"Hi","text":"x","__proto__":{"admin":true}}'),
    ]) {
      expect((await send(id, body)).status).toBe(400);
    }
    const crossSite = await call(replies, replyPath(id), {
      cookie,
      params: { id: String(id) },
      body: { subject: "Hi", text: "x" },
      headers: { origin: "https://evil.example" },
    });
    expect(crossSite.status).toBe(403);
    expect(await messages(id)).toHaveLength(0);
  });
});

// ── Inbound ──

interface Post {
  mime?: string | Buffer;
  recipient?: string;
  timestamp?: string;
  token?: string;
  signature?: string;
  extra?: [string, string][];
}

function signedForm({ mime, recipient, timestamp, token, signature, extra = [] }: Post): FormData {
  const ts = timestamp ?? String(Math.floor(Date.now() / 1000));
  const tok = token ?? randomBytes(25).toString("hex");
  const form = new FormData();
  for (const [name, value] of extra) form.append(name, value);
  form.append("timestamp", ts);
  form.append("token", tok);
  form.append(
    "signature",
    signature ??
      createHmac("sha256", KEY)
        .update(ts + tok)
        .digest("hex"),
  );
  if (recipient !== undefined) form.append("recipient", recipient);
  form.append("sender", "lead@example.com");
  if (mime !== undefined) form.append("body-mime", typeof mime === "string" ? mime : mime.toString("utf8"));
  return form;
}

async function post(body: BodyInit, headers: Record<string, string> = {}) {
  const req = new Request(new URL("/api/inbound/mailgun-mime", ORIGIN), {
    method: "POST",
    body,
    headers,
    ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
  } as RequestInit);
  const res = await inbound(req, { params: {} } as unknown as Context);
  return { status: res.status, json: (await res.json().catch(() => null)) as Record<string, unknown> | null };
}

async function mime(fields: {
  to: string;
  inReplyTo?: string;
  text?: string;
  subject?: string;
  headers?: Record<string, string>;
}): Promise<Buffer> {
  const composer = new MailComposer({
    from: "Sara Rahimi <lead@example.com>",
    to: fields.to,
    subject: fields.subject ?? "Re: مدارک برای درخواست شما",
    text: fields.text ?? "سلام، طرح کسب‌وکار پیوست است. ممنون!\n\n> quoted",
    messageId: `<${randomBytes(8).toString("hex")}@mail.example.com>`,
    inReplyTo: fields.inReplyTo,
    references: fields.inReplyTo,
    headers: fields.headers,
    attachments: [{ filename: "plan.pdf", content: Buffer.from("%PDF-1.4 fake plan"), contentType: "application/pdf" }],
  });
  return new Promise((resolve, reject) =>
    composer.compile().build((error, message) => (error ? reject(error) : resolve(message))),
  );
}

describe("replies from the lead come back (Mailgun route)", () => {
  test("a real MIME message with a Persian body and an attachment lands on the right lead, text only", async () => {
    const id = await newLead({ language: "fa" });
    const other = await newLead();
    const res = await post(signedForm({ mime: await mime({ to: replyAddress(id) }), recipient: replyAddress(id) }));
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ success: true, attachmentsDropped: 1 });
    const stored = await messages(id);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      direction: "in",
      fromAddress: "lead@example.com",
      subject: "Re: مدارک برای درخواست شما",
    });
    expect(stored[0].textBody).toContain("طرح کسب‌وکار پیوست است");
    expect(stored[0].textBody).not.toContain("PDF");
    expect(await messages(other)).toHaveLength(0);
    // The desk shows it.
    expect((await desk(id)).json.messages[0]).toMatchObject({ direction: "in" });
  });

  test("matches by In-Reply-To when the reply address is not there, and stores one Message-ID once", async () => {
    const id = await newLead();
    const sent = await send(id, { subject: "Hello", text: "Hello Sara" });
    const message = await mime({ to: "hello@bridgewise.eu", inReplyTo: sent.json.message.messageId });
    const first = await post(signedForm({ mime: message, recipient: "hello@bridgewise.eu" }));
    expect(first.status).toBe(200);
    const again = await post(signedForm({ mime: message, recipient: "hello@bridgewise.eu" }));
    expect(again).toMatchObject({ status: 200, json: { duplicate: true } });
    expect((await messages(id)).map((m) => m.direction)).toEqual(["out", "in"]);
  });

  test("refuses a wrong signature, a stale or future timestamp, and a replayed token: nothing stored", async () => {
    const id = await newLead();
    const message = await mime({ to: replyAddress(id) });
    const wrong = await post(signedForm({ mime: message, recipient: replyAddress(id), signature: "0".repeat(64) }));
    expect(wrong.status).toBe(403);
    const short = await post(signedForm({ mime: message, recipient: replyAddress(id), signature: "abc" }));
    expect(short.status).toBe(403);
    const old = String(Math.floor(Date.now() / 1000) - 16 * 60);
    expect((await post(signedForm({ mime: message, recipient: replyAddress(id), timestamp: old }))).status).toBe(403);
    const future = String(Math.floor(Date.now() / 1000) + 16 * 60);
    expect((await post(signedForm({ mime: message, recipient: replyAddress(id), timestamp: future }))).status).toBe(
      403,
    );
    const token = randomBytes(25).toString("hex");
    expect((await post(signedForm({ mime: message, recipient: replyAddress(id), token }))).status).toBe(200);
    const replay = await post(
      signedForm({ mime: await mime({ to: replyAddress(id) }), recipient: replyAddress(id), token }),
    );
    expect(replay).toMatchObject({
      status: 406,
      json: { success: false, message: "Dropped: replayed token", dropped: "replayed token" },
    });
    expect(await messages(id)).toHaveLength(1);
  });

  test("drops a forged or unknown reply address, an unmatched message and a reply to an erased person", async () => {
    const id = await newLead();
    const forged = replyAddress(id).replace(/-[0-9a-f]{20}@/, "-00000000000000000000@");
    for (const recipient of [forged, `reply+${id}@${replyAddress(id).split("@")[1]}`, replyAddress(999_999)]) {
      const res = await post(signedForm({ mime: await mime({ to: recipient }), recipient }));
      expect(res.status).toBe(406);
    }
    const nowhere = await post(
      signedForm({ mime: await mime({ to: "hello@bridgewise.eu" }), recipient: "hello@bridgewise.eu" }),
    );
    expect(nowhere).toMatchObject({ status: 406, json: { dropped: "no lead matches this message" } });

    const erasedId = await newLead({ email: "erase-me@example.com" });
    const erase = await call(privacy, "/api/admin/privacy/erase", {
      cookie,
      body: { email: "erase-me@example.com" },
      headers: { origin: ORIGIN },
    });
    expect(erase.status).toBe(200);
    const erased = await post(
      signedForm({ mime: await mime({ to: replyAddress(erasedId) }), recipient: replyAddress(erasedId) }),
    );
    expect(erased).toMatchObject({ status: 406, json: { dropped: "the person was erased" } });
    expect((await send(erasedId, { subject: "Hi", text: "x" })).status).toBe(409);
    for (const lead of [id, erasedId]) expect(await messages(lead)).toHaveLength(0);
  });

  test("the person's export holds the conversation, and their erasure deletes it", async () => {
    const email = `conversation-${randomBytes(4).toString("hex")}@example.com`;
    const id = await newLead({ email });
    expect((await send(id, { subject: "Hello", text: "Hello Sara" })).status).toBe(201);
    const answer = await post(signedForm({ mime: await mime({ to: replyAddress(id) }), recipient: replyAddress(id) }));
    expect(answer.status).toBe(200);
    const exported = await call(privacy, "/api/admin/privacy/export", {
      cookie,
      body: { email },
      headers: { origin: ORIGIN },
    });
    expect(exported.status).toBe(200);
    const data = exported.json.data ?? exported.json;
    expect(data.leadMessages.map((m: { direction: string }) => m.direction)).toEqual(["out", "in"]);
    expect(
      (await call(privacy, "/api/admin/privacy/erase", { cookie, body: { email }, headers: { origin: ORIGIN } }))
        .status,
    ).toBe(200);
    expect(await messages(id)).toHaveLength(0);
  });

  test("drops a message whose headers carry control characters", async () => {
    const id = await newLead();
    const clean = (await mime({ to: replyAddress(id) })).toString("utf8");
    // An encoded word that decodes to a line break and a NUL inside the subject.
    const dirty = clean.replace(
      /^Subject: .*(\r\n[ \t].*)*$/m,
      "Subject: =?UTF-8?B?" + Buffer.from("Hi\r\nBcc: x@evil.example\u0000").toString("base64") + "?=",
    );
    const res = await post(signedForm({ mime: dirty, recipient: replyAddress(id) }));
    expect(res).toMatchObject({ status: 406, json: { dropped: "control characters in a header" } });
    expect(await messages(id)).toHaveLength(0);
  });

  test("__proto__ and constructor fields in the form change nothing", async () => {
    const id = await newLead();
    const form = signedForm({
      mime: await mime({ to: replyAddress(id) }),
      recipient: replyAddress(id),
      extra: [
        ["__proto__", '{"polluted":true}'],
        ["constructor", "x"],
        ["__proto__[polluted]", "yes"],
      ],
    });
    const res = await post(form);
    expect(res.status).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await messages(id)).toHaveLength(1);
  });

  test("refuses a body past 25 MB with 413, declared or streamed, without reading it whole", async () => {
    const declared = await post(new Uint8Array(1), {
      "content-type": "multipart/form-data; boundary=x",
      "content-length": String(30 * 1024 * 1024),
    });
    expect(declared.status).toBe(413);

    // 30 MB streamed with no length: refused once the count passes 25 MB, the rest never pulled.
    const chunk = new Uint8Array(1024 * 1024).fill(97);
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('--x\r\nContent-Disposition: form-data; name="body-mime"\r\n\r\n'));
      },
      pull(controller) {
        if (pulled >= 30) return controller.close();
        pulled++;
        controller.enqueue(chunk);
      },
    });
    const streamed = await post(stream, { "content-type": "multipart/form-data; boundary=x" });
    expect(streamed.status).toBe(413);
    expect(pulled).toBeGreaterThan(MAX_INBOUND_BYTES / chunk.length - 1);
    expect(pulled).toBeLessThan(30);
  });

  test("answers 415 for another content type, 400 for a form without the signature, 503 without a key", async () => {
    expect((await post("{}", { "content-type": "application/json" })).status).toBe(415);
    const bare = new FormData();
    bare.append("recipient", "x@example.com");
    expect((await post(bare)).status).toBe(400);
    expect((await post("--x\r\nbroken", { "content-type": "multipart/form-data; boundary=x" })).status).toBe(400);
    delete process.env.MAILGUN_SIGNING_KEY;
    expect((await post(signedForm({ mime: "x" }))).status).toBe(503);
  });
});
