/**
 * A lead's answer to a reply, as Mailgun's route posts it: POST /api/inbound/mailgun-mime,
 * multipart/form-data with `body-mime` (the raw message), `timestamp`, `token`, `signature`
 * (HMAC-SHA256 of timestamp + token with MAILGUN_SIGNING_KEY), `recipient` and `sender`.
 *
 * The post is refused unless it is signed (constant-time check), fresh (timestamp within
 * FRESH_SECONDS of now) and not a replay (each token taken once). The message is parsed with
 * mailparser and matched to its lead by the reply address it was sent to (reply+<token>@…, the
 * token an HMAC only we can make), else by its In-Reply-To/References against the Message-IDs of
 * our replies and outbox. Its text is stored on lead_messages (direction 'in'); attachments are
 * not stored. Answers (Mailgun retries anything but 200 and 406, so a message we will never take is
 * answered 406, and only our own trouble is a 5xx):
 * - 200 { stored } — or 200 { duplicate } when this Message-ID is already stored for the lead;
 * - 400 a form without the signature fields, 415 not multipart/form-data, 413 over 25 MB (counted
 *   as it streams, never read whole);
 * - 403 a wrong signature or a stale timestamp (a forger's post; Mailgun itself would retry, so a
 *   key mistyped by the operator loses nothing once it is fixed);
 * - 406 { dropped } a signed post we will never take: a replayed token, a message that does not
 *   parse or has control characters in its headers, a forged or unknown reply address, no lead
 *   matched, or a lead whose person was erased. Nothing is stored;
 * - 503 no MAILGUN_SIGNING_KEY configured, or the database is unavailable (Mailgun retries).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { getDb } from "#db/client.ts";
import { enquiryByMessageIds, enquiryStanding, storeIncoming, takeInboundToken } from "#db/lead-messages.repository.ts";
import { site } from "#config/site.ts";
import { ROUTES } from "#shared/routes.ts";
import { mailgunSigningKey } from "#server/config.ts";
import { HttpError, json, route } from "./_lib/http/http.ts";
import { readReplyAddress } from "./_lib/mail/replies.ts";

/** The largest post taken: Mailgun's own limit of a message. */
export const MAX_INBOUND_BYTES = 25 * 1024 * 1024;
/** How far a post's timestamp may be from now, either way. */
export const FRESH_SECONDS = 15 * 60;
/** The most text of one answer kept (the rest is cut off, marked). */
export const MAX_TEXT_CHARS = 100_000;

const TOO_LARGE = "The post is larger than 25 MB";

/** The multipart form, counted as it streams: 413 past MAX_INBOUND_BYTES before it is all read. */
async function readForm(req: Request, type: string): Promise<FormData> {
  if (!req.body) throw new HttpError(400, "The post has no body");
  let size = 0;
  let tooLarge = false;
  const counted = req.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength;
        if (size > MAX_INBOUND_BYTES) {
          tooLarge = true;
          controller.error(new Error(TOO_LARGE));
        } else controller.enqueue(chunk);
      },
    }),
  );
  try {
    return await new Response(counted, { headers: { "content-type": type } }).formData();
  } catch {
    if (tooLarge) throw new HttpError(413, TOO_LARGE);
    throw new HttpError(400, "The post is not a readable multipart form");
  }
}

const field = (form: FormData, name: string): string | null => {
  const value = form.get(name);
  return typeof value === "string" ? value : null;
};

/** Whether `signature` is HMAC-SHA256(key, timestamp + token) in hex, compared in constant time. */
export function signatureValid(key: string, timestamp: string, token: string, signature: string): boolean {
  const expected = createHmac("sha256", key)
    .update(timestamp + token)
    .digest();
  if (!/^[0-9a-f]{64}$/i.test(signature)) return false;
  return timingSafeEqual(expected, Buffer.from(signature, "hex"));
}

const dropped = (reason: string) => json({ success: false, dropped: reason }, 406);

// Control characters (C0 but tab, DEL, C1) in a header's decoded value: a header injection or junk.
const HEADER_CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/;

/** The Message-IDs a header names: <…> each. */
const messageIds = (value: unknown): string[] =>
  (Array.isArray(value) ? value.join(" ") : typeof value === "string" ? value : "").match(/<[^<>\s]{1,500}>/g) ?? [];

const OUR_OUTBOX = new RegExp(`^<outbox-(\\d{1,18})@${site.host.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}>$`, "i");

export default route({
  POST: async (req: Request) => {
    const type = req.headers.get("content-type") ?? "";
    if (!/^multipart\/form-data\s*;/i.test(type)) throw new HttpError(415, "Expected multipart/form-data");
    if (Number(req.headers.get("content-length")) > MAX_INBOUND_BYTES) throw new HttpError(413, TOO_LARGE);
    const key = mailgunSigningKey();
    if (!key) throw new HttpError(503, "Inbound replies are not configured (MAILGUN_SIGNING_KEY)");
    const form = await readForm(req, type);
    const timestamp = field(form, "timestamp");
    const token = field(form, "token");
    const signature = field(form, "signature");
    if (!timestamp || !token || !signature) throw new HttpError(400, "timestamp, token and signature are required");
    if (!/^\d{1,12}$/.test(timestamp) || !/^[\w-]{1,200}$/.test(token))
      throw new HttpError(403, "The signature does not verify");
    if (!signatureValid(key, timestamp, token, signature)) throw new HttpError(403, "The signature does not verify");
    if (Math.abs(Date.now() / 1000 - Number(timestamp)) > FRESH_SECONDS)
      throw new HttpError(403, "The timestamp is not fresh");

    const db = getDb();
    if (!(await takeInboundToken(db, token))) return dropped("replayed token");

    const mime = field(form, "body-mime");
    if (!mime) return dropped("no body-mime");
    const { simpleParser } = await import("mailparser");
    let parsed: Awaited<ReturnType<typeof simpleParser>>;
    try {
      parsed = await simpleParser(mime, { skipImageLinks: true, skipTextToHtml: true, skipTextLinks: true });
    } catch {
      return dropped("the message does not parse");
    }
    for (const [name, value] of parsed.headers) {
      const text = typeof value === "string" ? value : JSON.stringify(value);
      if (HEADER_CONTROL.test(name) || HEADER_CONTROL.test(text)) return dropped("control characters in a header");
    }
    for (const line of parsed.headerLines) {
      if (HEADER_CONTROL.test(line.line.replace(/\r?\n[ \t]/g, " "))) return dropped("control characters in a header");
    }

    // The lead: by the reply address (Mailgun's recipient, else the message's To/Cc), else by threading.
    const candidates = [
      field(form, "recipient") ?? "",
      ...[parsed.to, parsed.cc].flat().flatMap((a) => a?.value.map((v) => v.address ?? "") ?? []),
    ].flatMap((list) => list.split(",").map((a) => a.trim()));
    let enquiryId: number | null = null;
    for (const address of candidates) {
      const read = readReplyAddress(address);
      if (read.kind === "forged") return dropped("unknown reply address");
      if (read.kind === "lead") {
        enquiryId = read.id;
        break;
      }
    }
    const inReplyTo = messageIds(parsed.inReplyTo)[0] ?? null;
    if (enquiryId === null) {
      const ids = [...new Set([...messageIds(parsed.inReplyTo), ...messageIds(parsed.references)])].slice(0, 50);
      const outboxIds = ids.map((id) => OUR_OUTBOX.exec(id)?.[1]).filter((id): id is string => Boolean(id));
      enquiryId = await enquiryByMessageIds(db, ids, outboxIds);
    }
    if (enquiryId === null) return dropped("no lead matches this message");
    const standing = await enquiryStanding(db, enquiryId);
    if (standing !== "open") return dropped(standing === "missing" ? "unknown reply address" : "the person was erased");

    const text = (parsed.text ?? htmlToText(typeof parsed.html === "string" ? parsed.html : "")).trim();
    const stored = await storeIncoming(db, {
      enquiryId,
      from: parsed.from?.value[0]?.address ?? field(form, "sender") ?? "",
      to: field(form, "recipient") ?? "",
      subject: (parsed.subject ?? "").slice(0, 500),
      text: text.length > MAX_TEXT_CHARS ? `${text.slice(0, MAX_TEXT_CHARS)}\n[…]` : text,
      messageId: messageIds(parsed.messageId)[0] ?? null,
      inReplyTo,
    });
    if (!stored) {
      // Either the same Message-ID again (Mailgun posted twice), or erased between the check and now.
      return (await enquiryStanding(db, enquiryId)) === "open"
        ? json({ success: true, duplicate: true })
        : dropped("the person was erased");
    }
    return json({ success: true, stored: stored.id, attachmentsDropped: parsed.attachments.length });
  },
});

/** The text of an HTML-only answer: tags dropped, breaks kept, entities of the common kind decoded. */
function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, "")
    .replace(/<br\s*\/?>|<\/(p|div|li|tr|h\d)>/gi, "\n")
    .replace(/<[^>]*>/g, "")
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\n{3,}/g, "\n\n");
}

export const config = { path: ROUTES.inboundMailgun };
