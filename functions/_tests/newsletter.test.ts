/**
 * The newsletter, double opt-in, end to end through the real handlers, a real database and a real
 * SMTP server: sign-up → confirmation email with a signed link → confirm → counted; the unsubscribe
 * link and RFC 8058 headers in every newsletter email; one-click unsubscribe without cookies.
 */
import { beforeEach, describe, expect, test } from "vitest";
import { call, ORIGIN, apiTestbed, type ApiTestDatabase } from "./harness.ts";
import { TestMailServer, type ReceivedMessage } from "./mail-server.ts";
import newsletter from "../newsletter.ts";
import newsletterLinks, { config as linksConfig } from "../newsletter-links.ts";
import adminNewsletter from "../admin-newsletter.ts";
import { linkToken } from "../_lib/newsletter/links.ts";
import { site } from "#config/site.ts";
import { plainT } from "#src/i18n/index.ts";

const smtp = new TestMailServer();
let t: ApiTestDatabase;
let cookie: string;

apiTestbed({ admin: "news-admin", smtp }, (bed) => ({ t, cookie } = bed));
beforeEach(async () => {
  await t.db.deleteFrom("newsletterSubscribers").execute();
  await t.db.deleteFrom("emailOutbox").execute();
  process.env.SMTP_URL = smtp.url;
  delete process.env.BOOKING_NOW;
  smtp.messages.length = 0;
});

const signUp = (email: string, language = "en", page = "/en/") =>
  call(newsletter, "/api/newsletter", { body: { email, language, page } });

/** Waits for the one message to `address` and answers it. */
async function mailTo(address: string): Promise<ReceivedMessage> {
  const until = Date.now() + 10_000;
  while (!smtp.messages.some((m) => m.envelope.to.includes(address))) {
    if (Date.now() > until) throw new Error(`no message to ${address}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return smtp.to(address);
}

/** One header of a message as sent (unfolded: RFC 5322 continues a long header on lines that start with a space). */
function header(message: ReceivedMessage, name: string): string | undefined {
  const head = message.raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, " ");
  return new RegExp(`^${name}: *(.*?)\r?$`, "im").exec(head)?.[1];
}

/** The links of a message's text that lead to our own pages. */
const links = (message: ReceivedMessage) => (message.parsed.text ?? "").match(/https:\/\/\S+/g) ?? [];

/** A link of ours, followed against the handler as the browser's form post would: to the same URL. */
function post(url: string, form: Record<string, string> = {}, headers: Record<string, string> = {}) {
  const { pathname, search } = new URL(url);
  return call(newsletterLinks, `${pathname}${search}`, {
    method: "POST",
    raw: new URLSearchParams(form).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
  });
}

const counts = async () => (await call(adminNewsletter, "/api/admin/newsletter", { cookie })).json;
const csv = async () => (await call(adminNewsletter, "/api/admin/newsletter/subscribers.csv", { cookie })).text;

describe("newsletter double opt-in", () => {
  test("sign-up → email in the visitor's language with a signed link → confirm → counted and exported", async () => {
    const res = await signUp("nima@example.com", "fa", "/fa/startup-visa");
    expect(res.status).toBe(202);
    const mail = await mailTo("nima@example.com");
    expect(mail.parsed.subject).toBe(plainT("fa")("mail.newsletter.confirm.subject"));
    const confirm = links(mail).find((l) => l.includes("/newsletter/confirm/"))!;
    expect(confirm).toMatch(new RegExp(`^${site.url}/fa/newsletter/confirm/\\?token=\\d+\\.\\d+\\.[\\w-]{43}$`));
    expect(mail.parsed.html).toContain(`href="${confirm}"`);

    // Pending: not counted, not in the export.
    expect(await counts()).toEqual({ confirmed: 0, pending: 1 });
    expect(await csv()).not.toContain("nima@example.com");

    const confirmed = await post(confirm, { confirm: "1" });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get("location")).toBe("/fa/newsletter/confirmed/");
    expect(await counts()).toEqual({ confirmed: 1, pending: 0 });
    expect(await csv()).toContain("nima@example.com,fa,");
    const [row] = await t.db.selectFrom("newsletterSubscribers").selectAll().execute();
    expect(row).toMatchObject({ language: "fa", consentPage: "/fa/startup-visa", isActive: true });
    expect(row.consentedAt).toBeInstanceOf(Date);
    expect(row.confirmedAt).toBeInstanceOf(Date);

    // The welcome email is the first newsletter email: it carries the one-click unsubscribe.
    await smtp.waitFor(2);
    expect(smtp.messages[1].parsed.subject).toBe(plainT("fa")("mail.newsletter.welcome.subject"));
    expect(header(smtp.messages[1], "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    expect(header(smtp.messages[1], "List-Unsubscribe")).toMatch(
      /^<https:\/\/.*\/fa\/newsletter\/unsubscribe\/\?token=/,
    );
  });

  test("the confirmation email already has the unsubscribe link and the RFC 8058 headers", async () => {
    await signUp("lena@example.com", "nl");
    const mail = await mailTo("lena@example.com");
    const unsubscribe = links(mail).find((l) => l.includes("/newsletter/unsubscribe/"))!;
    expect(unsubscribe).toMatch(new RegExp(`^${site.url}/nl/newsletter/unsubscribe/\\?token=`));
    expect(header(mail, "List-Unsubscribe")).toBe(`<${unsubscribe}>`);
    expect(header(mail, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    expect(mail.parsed.html).toContain(`href="${unsubscribe}"`);
  });

  test("one-click POST (no cookie, no origin) unsubscribes and answers 200; the visitor's form lands on a page", async () => {
    await signUp("omid@example.com");
    const mail = await mailTo("omid@example.com");
    await post(links(mail).find((l) => l.includes("/newsletter/confirm/"))!);
    expect((await counts()).confirmed).toBe(1);

    const unsubscribe = /<([^>]+)>/.exec(header(mail, "List-Unsubscribe")!)![1];
    const oneClick = await post(unsubscribe, { "List-Unsubscribe": "One-Click" });
    expect(oneClick.status).toBe(200);
    expect((await counts()).confirmed).toBe(0);
    expect(await csv()).not.toContain("omid@example.com");

    const page = await post(unsubscribe, { unsubscribe: "1" }, { origin: ORIGIN });
    expect(page.status).toBe(303);
    expect(page.headers.get("location")).toBe("/en/newsletter/unsubscribed/");
  });

  test("the same answer, status and body, for a new, a pending and a confirmed address", async () => {
    const fresh = await signUp("same.new@example.com");
    const pending = await signUp("same.new@example.com");
    await t.db.updateTable("newsletterSubscribers").set({ isActive: true, confirmedAt: new Date() }).execute();
    const active = await signUp("same.new@example.com");
    for (const answer of [pending, active]) {
      expect(answer.status).toBe(fresh.status);
      expect(answer.text).toBe(fresh.text);
    }
    await smtp.waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(smtp.messages.filter((m) => m.envelope.to.includes("same.new@example.com"))).toHaveLength(1);
  });

  test("forged, expired or swapped tokens change nothing", async () => {
    await signUp("eve@example.com");
    const [row] = await t.db
      .selectFrom("newsletterSubscribers")
      .select("id")
      .where("email", "=", "eve@example.com")
      .execute();
    const base = `${site.url}/en/newsletter`;
    const expired = linkToken("confirm", row.id, Math.floor(Date.now() / 1000) - 1);
    const forged = linkToken("confirm", row.id, 0).replace(/.$/, (c) => (c === "A" ? "B" : "A"));
    const unsubscribeAsConfirm = linkToken("unsubscribe", row.id);
    for (const token of [expired, forged, unsubscribeAsConfirm, "", "1.2.3"]) {
      const res = await post(`${base}/confirm/?token=${token}`);
      expect(res.headers.get("location"), token).toBe("/en/newsletter/link-invalid/");
    }
    expect((await post(`${base}/unsubscribe/?token=nope`, { "List-Unsubscribe": "One-Click" })).status).toBe(400);
    const [after] = await t.db.selectFrom("newsletterSubscribers").selectAll().where("id", "=", row.id).execute();
    expect(after).toMatchObject({ isActive: false, confirmedAt: null, unsubscribedAt: null });
  });

  test("the links are served on POST only (a GET is the static page), under each language", () => {
    expect(linksConfig.method).toBe("POST");
    expect(linksConfig.path).toContain("/:lang/newsletter/confirm/");
    expect(linksConfig.path).toContain("/:lang/newsletter/unsubscribe/");
  });
});

describe("GET /api/admin/newsletter/subscribers.csv", () => {
  test("UTF-8 with BOM, confirmed subscribers only, formula cells neutralised; a session is required", async () => {
    await t.db.deleteFrom("newsletterSubscribers").execute();
    await t.db
      .insertInto("newsletterSubscribers")
      .values([
        { email: "=cmd@example.com", language: "en", isActive: true, confirmedAt: new Date(), consentPage: "+/x" },
        { email: "آرش@example.com", language: "fa", isActive: true, confirmedAt: new Date(), consentPage: "/fa/" },
        { email: "pending@example.com", language: "en" },
      ])
      .execute();
    const res = await adminNewsletter(
      new Request(`${ORIGIN}/api/admin/newsletter/subscribers.csv`, { headers: { cookie } }),
      { params: {} } as never,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="newsletter-subscribers-/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder("utf-8", { ignoreBOM: false }).decode(bytes).trimEnd().split("\r\n");
    expect(lines[0]).toBe("email,language,confirmed_at,signed_up_at,signed_up_on_page");
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^'=cmd@example\.com,en,.*,'\+\/x$/);
    expect(lines[2]).toMatch(/^آرش@example\.com,fa,/);
    expect((await call(adminNewsletter, "/api/admin/newsletter/subscribers.csv")).status).toBe(401);
  });
});
