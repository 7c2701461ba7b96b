/**
 * Every endpoint the functions serve, found from their own `config.path` (and their methods from the
 * `Allow` of a 405), with a valid body for each that reads one: the API tests that walk every endpoint
 * (control characters, hostile input) start here, so a new endpoint is covered or named.
 */
import type { Config, Context } from "@netlify/functions";
import { call, functionModules } from "./harness.ts";

export type Handler = (req: Request, context: Context) => Promise<Response>;

/** One method of one served path: `key` is "METHOD template", `path` the template with its params filled in. */
export interface Endpoint {
  key: string;
  template: string;
  path: string;
  method: string;
  handler: Handler;
}

/** Every (template, path, handler) a function serves, its `:params` filled in. */
export async function servedPaths(): Promise<{ template: string; path: string; handler: Handler }[]> {
  const served = [];
  for (const { handler, config } of await functionModules()) {
    const paths = (config as Config | undefined)?.path;
    if (!paths) continue; // a scheduled function: no HTTP input
    for (const template of Array.isArray(paths) ? paths : [paths]) {
      served.push({
        template,
        path: template.replace(":id", "1").replace(":lang", "en").replace(":ref", "E-00001"),
        handler,
      });
    }
  }
  return served;
}

/** Every method of every served path, from the `Allow` header of its answer to OPTIONS (which no endpoint serves). */
export async function endpoints(cookie: string): Promise<Endpoint[]> {
  const found: Endpoint[] = [];
  for (const { template, path, handler } of await servedPaths()) {
    const probe = await call(handler, path, { method: "OPTIONS", cookie });
    if (probe.status !== 405) throw new Error(`OPTIONS ${path} answered ${probe.status}, not 405`);
    for (const method of (probe.headers.get("allow") ?? "").split(", ").filter(Boolean)) {
      found.push({ key: `${method} ${template}`, template, path, method, handler });
    }
  }
  return found;
}

/**
 * A valid body of every endpoint that reads one, keyed "METHOD template"; null for those that read
 * none. A body endpoint missing here fails the test "every endpoint that reads a body is covered".
 */
export const BODIES: Record<string, Record<string, unknown> | null> = {
  "POST /api/admin/submissions/:id/reply": { subject: "Your enquiry", text: "Dear Ada,\n\nThank you." },
  // Mailgun's multipart form, not JSON (functions/_tests/lead-replies.test.ts posts real ones).
  "POST /api/inbound/mailgun-mime": null,
  "POST /api/contact": {
    firstName: "Ada",
    lastName: "Lovelace",
    email: "ada@example.com",
    company: "Engines",
    service: "startup-visa",
    message: "We would like to talk about Amsterdam.",
    language: "en",
    source: {
      page: "/en/startup-visa",
      landing: "/en/",
      referrer: "www.google.com",
      utmSource: "newsletter",
      utmMedium: "email",
      utmCampaign: "spring",
      heard: "search",
    },
  },
  "POST /api/meetings/schedule": {
    name: "Ada Lovelace",
    email: "ada@example.com",
    phone: "+31 20 123 4567",
    date: "2026-11-27",
    time: "10:00",
    language: "en",
    source: {
      page: "/en/startup-visa",
      landing: "/en/",
      referrer: "www.google.com",
      utmSource: "newsletter",
      utmMedium: "email",
      utmCampaign: "spring",
      heard: "search",
    },
  },
  // The page-view beacon (text/plain JSON): the page, the referrer's host, the campaign tags, first page of the visit.
  "POST /api/views": { p: "/en/startup-visa", r: "www.google.com", s: "newsletter", m: "email", c: "spring", e: true },
  "POST /api/login": { username: "admin", password: "a long enough password" },
  "POST /api/logout": null,
  "PATCH /api/user": { language: "nl" },
  "POST /api/newsletter": { email: "ada@example.com", language: "en", page: "/en/" },
  "POST /api/meetings/manage/move": { date: "2026-11-27", time: "10:00" },
  "POST /api/meetings/manage/cancel": null,
  "PATCH /api/admin/submissions/:id": { version: 0, stage: "replied" },
  "POST /api/admin/lost-reasons": { labels: { en: "Too far away", nl: "Te ver weg", fa: "خیلی دور است" } },
  "PATCH /api/admin/lost-reasons/:id": { labels: { en: "No budget", nl: "Geen budget", fa: "بودجه ندارد" } },
  // One function serves the reasons and one reason: each answers 405 on the other's methods first.
  "POST /api/admin/lost-reasons/:id": null,
  "PATCH /api/admin/lost-reasons": null,
  "PATCH /api/admin/meetings/:id": { isConfirmed: true },
  "POST /api/admin/meetings/:id/cancel": null,
  "POST /api/admin/meetings/:id/consultant": {
    consultant: "pieter-van-dijk",
    was: { date: "2026-11-25", time: "10:00", consultant: "nasrin-farahani" },
  },
  "POST /api/admin/consultants": { consultant: "kaveh-tehrani", userId: 1 },
  "PATCH /api/admin/consultants/:id": { active: false },
  // One function serves the consultants and one consultant: each answers 405 on the other's methods first.
  "POST /api/admin/consultants/:id": null,
  "PATCH /api/admin/consultants": null,
  "POST /api/admin/meetings/:id/move": {
    date: "2026-11-26",
    time: "11:00",
    was: { date: "2026-11-25", time: "10:00", consultant: "nasrin-farahani" },
  },
  "POST /api/admin/submissions/:id/note": { note: "Called back on Monday." },
  "POST /api/admin/meetings/:id/note": { note: "Called back on Monday." },
  "POST /api/admin/people/:ref/notes": { note: "Called back on Monday." },
  "PATCH /api/admin/notes/:id": { note: "Called back on Monday." },
  "POST /api/admin/privacy/export": { email: "ada@example.com" },
  "POST /api/admin/privacy/erase": { email: "ada@example.com" },
  "POST /api/admin/users": { username: "editor-two", role: "editor" },
  "PATCH /api/admin/users/:id": { role: "editor" },
  "POST /api/account/password": { currentPassword: "a long enough password", newPassword: "another long password" },
  "PUT /api/admin/availability": {
    hours: [{ weekday: 1, opens: "09:00", closes: "17:00" }],
    publicHolidays: true,
  },
  "PUT /api/content/texts": {
    revisions: { en: "0123456789abcdef0123456789abcdef01234567" },
    changes: [{ lang: "nl", key: "hero.title", value: "Groei in Europa", was: "Groeien in Europa" }],
  },
  "POST /api/content/reviewed": { texts: [{ lang: "nl", key: "hero.title" }] },
  "POST /api/content/undo": { commit: "0123456789abcdef0123456789abcdef01234567" },
  "POST /api/content/team": {
    revisions: {},
    member: {
      name: { en: "Lotte de Vries", nl: "Lotte de Vries", fa: "لوته د فریس" },
      role: { en: "Consultant", nl: "Adviseur", fa: "مشاور" },
      bio: {
        en: "Helps founders settle.",
        nl: "Helpt oprichters zich te vestigen.",
        fa: "به بنیان‌گذاران کمک می‌کند.",
      },
      languages: ["nl", "en"],
      services: ["startup-visa"],
    },
  },
  "PUT /api/admin/booking-rules": {
    noticeMinutes: 1440,
    bufferBeforeMinutes: 15,
    bufferAfterMinutes: 15,
    dailyLimit: 6,
    changeCutoffMinutes: 1440,
    meetingPlace: "video",
    videoPattern: "https://meet.jit.si/bridgewise-{random}",
  },
  "POST /api/admin/meetings/:id/outcome": { outcome: "done" },
  "POST /api/admin/availability/calendars/test": { name: "Team", url: "http://127.0.0.1:9/calendar.ics" },
  "POST /api/admin/availability/meetings-feed": null,
  "POST /api/admin/availability/closures": { from: "2026-12-24", to: "2026-12-26", note: "Christmas" },
  "POST /api/admin/availability/calendars": {
    name: "Team",
    url: "http://127.0.0.1:9/calendar.ics",
    username: "team",
    password: "secret",
  },
  "POST /api/admin/availability/calendars/:id": null,
  "POST /api/admin/availability/calendars/:id/refresh": null,
  // The lists answer PATCH with 405 (it needs a record id) before reading a body.
  "PATCH /api/admin/submissions": null,
  "PATCH /api/admin/meetings": null,
  // One function serves the accounts and one account: each answers 405 on the other's methods first.
  "PATCH /api/admin/users": null,
  "POST /api/admin/users/:id": null,
  // The second factor: the login's second step and passkey sign-in, the account's factors, the setting.
  "POST /api/login/second-factor": { code: "123456" },
  "POST /api/login/passkey/options": null,
  "POST /api/login/passkey": {
    response: {
      id: "Y3JlZGVudGlhbA",
      rawId: "Y3JlZGVudGlhbA",
      type: "public-key",
      response: {
        clientDataJSON: "eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0",
        authenticatorData: "YXV0aGRhdGE",
        signature: "c2lnbmF0dXJl",
        userHandle: "YWNjb3VudC0x",
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    },
  },
  "POST /api/account/factors/totp": null,
  "POST /api/account/factors/totp/confirm": { code: "123456" },
  "POST /api/account/factors/totp/remove": { password: "a long enough password" },
  "POST /api/account/factors/recovery-codes": { password: "a long enough password" },
  "PUT /api/account/email": { email: "ada@example.com" },
  "POST /api/account/passkeys/options": null,
  "POST /api/account/passkeys": {
    name: "Laptop",
    response: {
      id: "Y3JlZGVudGlhbA",
      rawId: "Y3JlZGVudGlhbA",
      type: "public-key",
      response: {
        clientDataJSON: "eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0",
        attestationObject: "YXR0ZXN0YXRpb24",
        transports: ["internal"],
      },
      clientExtensionResults: {},
    },
  },
  "PATCH /api/account/passkeys/:id": { name: "Laptop" },
  // One function serves the passkeys, their options and one passkey: each answers 405 on the others' methods first.
  "PATCH /api/account/passkeys": null,
  "PATCH /api/account/passkeys/options": null,
  "POST /api/account/passkeys/:id": null,
  "PUT /api/admin/security-settings": { requireSecondFactor: false },
  "POST /api/account/step-up": { password: "a long enough password" },
  "POST /api/account/step-up/options": null,
  "POST /api/invitation": { token: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" },
  "POST /api/invitation/accept": {
    token: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    password: "another long password",
  },
  "POST /:lang/newsletter/confirm/": null,
  "POST /:lang/newsletter/confirm": null,
  "POST /:lang/newsletter/unsubscribe/": null,
  "POST /:lang/newsletter/unsubscribe": null,
};
