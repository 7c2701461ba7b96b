/**
 * Replies to a lead from the panel: the reply templates (the `mail.replies` group of the locale
 * files, so the content editor shows and edits them like every other site text), their rendering for
 * one lead in the lead's language, the email made of what the staff finally wrote, and the per-lead
 * reply address `reply+<token>@<REPLY_DOMAIN>` that brings the lead's answer back
 * (functions/inbound-mailgun.ts).
 *
 * Placeholders are filled in one pass: a value that itself holds `{{reference}}` (a first name can
 * hold anything) stays as typed, never expanded. The HTML part escapes every character of the
 * staff's text and of the values; nothing they type becomes markup or a link.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { site } from "#config/site.ts";
import { resources } from "#src/i18n/locales/index.ts";
import { localePath, serviceNames } from "#src/i18n/plain.ts";
import { dirOf, type Language } from "#shared/languages.ts";
import { isServiceId } from "#shared/services.ts";
import { replyAddressKey, replyDomain } from "#server/config.ts";
import { enquiryReference } from "#shared/leads.ts";
import { escapeHtml, page, type Email } from "./templates.ts";

/** The reply templates, in the order the panel offers them. */
export const REPLY_TEMPLATES = ["firstAnswer", "askDocuments", "proposeMeeting"] as const;
export type ReplyTemplate = (typeof REPLY_TEMPLATES)[number];
export const isReplyTemplate = (value: unknown): value is ReplyTemplate =>
  REPLY_TEMPLATES.includes(value as ReplyTemplate);

/** What a template's placeholders stand for. */
export interface ReplyValues {
  firstName: string;
  service: string;
  reference: string;
  bookingLink: string;
  ownerName: string;
}

/** The values for one lead: its first name as typed, its service in its language, our reference, the booking link. */
export function replyValues(
  lead: { id: number; firstName: string; service: string },
  lang: Language,
  ownerName: string,
): ReplyValues {
  return {
    firstName: lead.firstName.trim(),
    service: isServiceId(lead.service) ? serviceNames(lang)[lead.service] : lead.service,
    reference: enquiryReference(lead.id),
    bookingLink: `${site.url}${localePath(lang)}#contact`,
    ownerName,
  };
}

/** `text` with each {{name}} of `values` (and {{brand}}) filled in, in one pass; unknown ones stay. */
export function fill(text: string, values: ReplyValues): string {
  const all: Record<string, string> = { ...values, brand: site.name };
  return text.replace(/\{\{\s*([A-Za-z]+)\s*\}\}/g, (whole, name: string) =>
    Object.hasOwn(all, name) ? all[name] : whole,
  );
}

/** A template rendered for a lead: the subject and the plain text the staff start editing from. */
export function renderReply(
  lang: Language,
  template: ReplyTemplate,
  values: ReplyValues,
): { subject: string; text: string } {
  const copy = resources[lang].mail.replies;
  const t = copy[template];
  const text = [copy.greeting, t.opening, t.body, `${copy.signOff}\n${copy.signature}`].join("\n\n");
  return { subject: fill(t.subject, values), text: fill(text, values) };
}

/**
 * The email of a reply as the staff wrote it: the text as typed, and an HTML part in the lead's
 * language and direction whose every character of the text is escaped (paragraphs at blank lines).
 */
export function leadReplyEmail(lang: Language, subject: string, text: string): Email {
  const paragraphs = text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p style="margin:0 0 16px;line-height:1.6">${escapeHtml(p).replace(/\n/g, "<br>")}</p>`);
  return { subject, text, html: page(lang, subject, paragraphs.join("\n")) };
}

/** Whether a language reads right to left (the composer's text box follows the lead's language). */
export const replyDirection = (lang: Language) => dirOf(lang);

// ── The per-lead reply address ──

/** Hex characters of the HMAC in a reply token: 80 bits, lower case (mail systems may fold case). */
const TOKEN_HEX = 20;

const tokenMac = (enquiryId: number) =>
  createHmac("sha256", replyAddressKey()).update(`lead-reply:${enquiryId}`).digest("hex").slice(0, TOKEN_HEX);

/** The lead's reply address: reply+<id>-<mac>@<reply domain>. */
export const replyAddress = (enquiryId: number) => `reply+${enquiryId}-${tokenMac(enquiryId)}@${replyDomain()}`;

/**
 * What an address says about a lead: `none` when it is not a reply address of ours (another local
 * part or domain), `forged` when it looks like one but its token does not verify, else the lead.
 */
export function readReplyAddress(
  address: string,
): { kind: "none" } | { kind: "forged" } | { kind: "lead"; id: number } {
  const match = /^reply\+([^@]*)@(.+)$/i.exec(address.trim());
  if (!match || match[2].toLowerCase() !== replyDomain()) return { kind: "none" };
  const token = /^(\d{1,9})-([0-9a-f]{20})$/i.exec(match[1]);
  if (!token) return { kind: "forged" };
  const id = Number(token[1]);
  const expected = Buffer.from(tokenMac(id));
  const given = Buffer.from(token[2].toLowerCase());
  return given.length === expected.length && timingSafeEqual(given, expected)
    ? { kind: "lead", id }
    : { kind: "forged" };
}
