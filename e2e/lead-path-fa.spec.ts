import { readdir, readFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import path from "node:path";
import { createHmac, randomBytes } from "node:crypto";
import type { APIRequestContext, BrowserContext, Locator, Page } from "@playwright/test";
import { simpleParser, type ParsedMail } from "mailparser";
import MailComposer from "nodemailer/lib/mail-composer/index.js";
import { expect, test } from "./test";
import { ADMIN, hydrated, keepScreenshot, skipSplash, uniqueTag } from "./helpers";
import { inviteAccount } from "./invite";
import fa from "../src/i18n/locales/fa.json" with { type: "json" };
import { euros } from "../src/components/admin/sources/labels";

/**
 * Issue 42's whole lead path, in Persian, as its people walk it: a visitor comes from an Instagram
 * nowruz campaign and sends an enquiry through the form; an admin, whose panel is in Persian, finds
 * it by the reference the visitor quotes, gives it to a colleague, answers from a Persian template;
 * the visitor's answer comes back through the inbound endpoint as a real MIME message and shows on
 * the person's timeline; the lead becomes a client worth €4,500, and the Sources view credits the
 * campaign with it. Every panel page walked is laid out at 390 and 1280 px and photographed
 * (keepScreenshot). Each run starts on a fresh database (playwright.config.ts), so the campaign's
 * figures are this walk's alone. The clock is the real one on both sides: the enquiry is made now,
 * and the Sources view shows the last 30 days up to today, which holds it on any day of the year.
 */

/** Headless Chromium is a robot to the visit counter: the visitor presents a desktop Chrome. */
const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36";
const a = fa.admin;
/** €4,500 as the Persian panel writes euros, in Persian digits. */
const FOUR_THOUSAND_FIVE_HUNDRED = euros("fa", 450_000);

/** Every email the local server wrote to DATA_DIR/outbox for `address`, oldest first. */
async function mailsTo(address: string): Promise<ParsedMail[]> {
  const outbox = path.join(process.env.E2E_DATA_DIR!, "outbox");
  const mails: ParsedMail[] = [];
  for (const file of (await readdir(outbox).catch(() => [] as string[])).sort()) {
    if (!file.endsWith(".eml")) continue;
    const raw = await readFile(path.join(outbox, file));
    if (!raw.includes(address)) continue;
    const mail = await simpleParser(raw);
    if (mail.to && !Array.isArray(mail.to) && mail.to.text === address) mails.push(mail);
  }
  return mails.sort((x, y) => (x.date?.getTime() ?? 0) - (y.date?.getTime() ?? 0));
}

/** The first email to `address` that `match` picks, once the server has written it. */
async function mailTo(address: string, match: (mail: ParsedMail) => boolean): Promise<ParsedMail> {
  await expect.poll(async () => (await mailsTo(address)).some(match), { timeout: 20_000 }).toBe(true);
  return (await mailsTo(address)).find(match)!;
}

/** The visitor's answer as their mail program writes it: "Re:" our subject, threaded under our reply. */
function answer(from: string, to: string, reply: ParsedMail, text: string): Promise<Buffer> {
  const references = [...[reply.references ?? []].flat(), reply.messageId!];
  const composer = new MailComposer({
    from,
    to,
    subject: `Re: ${reply.subject}`,
    text,
    inReplyTo: reply.messageId,
    references,
  });
  return new Promise((resolve, reject) => composer.compile().build((e, m) => (e ? reject(e) : resolve(m))));
}

/** Posts a MIME message to the inbound endpoint as Mailgun's route does, signed with this run's key. */
async function postInbound(request: APIRequestContext, mime: Buffer, sender: string, recipient: string) {
  const key = readFileSync(path.join(process.env.E2E_DATA_DIR!, "mailgun-signing-key"), "utf8").trim();
  const timestamp = String(Math.floor(Date.now() / 1000));
  const token = randomBytes(25).toString("hex");
  const signature = createHmac("sha256", key)
    .update(timestamp + token)
    .digest("hex");
  return request.post("/api/inbound/mailgun-mime", {
    multipart: { timestamp, token, signature, recipient, sender, "body-mime": mime.toString("utf8") },
  });
}

/**
 * The admin's browser: the panel in Persian by this browser's choice (the shared account keeps none),
 * under the same watch on the Content-Security-Policy as the test's own context (e2e/test.ts).
 */
async function adminBrowser(context: BrowserContext, account: { username: string; password: string }) {
  await context.addInitScript(() => {
    localStorage.setItem("admin-language", "fa");
    document.addEventListener("securitypolicyviolation", (e) =>
      console.error(`Refused: ${e.violatedDirective} ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}`),
    );
  });
  context.on("page", (p) =>
    p.on("console", (m) => {
      if (/Content Security Policy|Refused/i.test(m.text())) cspSeen.push(m.text());
    }),
  );
  const page = await context.newPage();
  const login = await page.request.post("/api/login", { data: account });
  expect(login.status(), await login.text()).toBe(200);
  return page;
}

/**
 * The page at phone and desktop widths: it never scrolls sideways, and each width is photographed
 * whole for a person to look at (keepScreenshot: not in CI).
 */
async function atBothWidths(page: Page, name: string) {
  const size = page.viewportSize()!;
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
    await keepScreenshot(page, {
      path: test.info().outputPath(`${name}-${width}.png`),
      fullPage: !name.includes("dialog"),
    });
  }
  await page.setViewportSize(size);
}

/** How many lines `text` takes inside `element` as laid out now (a text split at its dash takes two). */
function linesOf(element: Locator, text: string): Promise<number> {
  return element.evaluate((root, wanted) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent!.indexOf(wanted);
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + wanted.length);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    }
    return 0;
  }, text);
}

/** What the admin's browser saw refused by the Content-Security-Policy. */
const cspSeen: string[] = [];

/** No Latin digit in what a Persian panel shows here (references and addresses are marked to keep theirs). */
const latinDigits = (text: string) => text.match(/[0-9]/g) ?? [];

test.use({ userAgent: CHROME });

test("a nowruz visitor's Persian enquiry becomes a client worth €4,500, credited to its campaign", async ({
  page,
  browser,
  baseURL,
}) => {
  // A long walk through three browsers' worth of pages: about a minute on CI's two workers.
  test.slow();
  const tag = uniqueTag();
  const visitor = { first: "نیلوفر", last: `رحیمی ${tag}`, email: `niloofar.${tag}@example.com` };
  const ownerEmail = `owner.${tag}@example.com`;
  expect(FOUR_THOUSAND_FIVE_HUNDRED).toMatch(/^\u200e?€\s?۴٬۵۰۰$|^۴٬۵۰۰\s?€$/);

  // The second admin, who will own the lead: invited and set up as the panel does it.
  const colleague = (async () => {
    const context = await browser.newContext({ baseURL });
    expect((await context.request.post("/api/login", { data: ADMIN })).status()).toBe(200);
    const username = `sara${tag}`;
    const password = await inviteAccount(
      context.request,
      ADMIN.password,
      { username, role: "admin", email: ownerEmail, language: "fa" },
      baseURL,
    );
    await context.close();
    return { username, password };
  })();

  // 1. The visitor arrives from the campaign and sends an enquiry through the form.
  await skipSplash(page.context());
  const counted = page.waitForResponse((r) => r.url().includes("/api/views") && r.request().method() === "POST");
  await page.goto("/fa/?utm_source=instagram&utm_campaign=nowruz");
  expect((await counted).status()).toBe(204);
  await page.locator("#contact-form").scrollIntoViewIfNeeded();
  await hydrated(page, "ContactForm");
  await page.locator("#cf-firstName").fill(visitor.first);
  await page.locator("#cf-lastName").fill(visitor.last);
  await page.locator("#cf-email").fill(visitor.email);
  await page.locator("#cf-service").selectOption("startup-visa");
  await page.locator("#cf-message").fill("سلام، می‌خواهیم دفتری در هلند باز کنیم. لطفاً راهنمایی کنید.");
  await page.locator("#cf-heard").selectOption("instagram");
  await page.locator("#contact-form form button[type=submit]").click();
  const sent = page.getByTestId("enquiry-sent");
  await expect(sent).toContainText(/E-\d{5}/);
  const shown = /E-\d{5}/.exec(await sent.innerText())![0];

  // Its reference, as the acknowledgement tells the visitor.
  const acknowledgement = await mailTo(visitor.email, (m) => (m.text ?? "").includes(shown));
  expect(acknowledgement.messageId).toMatch(/^<.+@.+>$/);
  const reference = shown;
  const id = Number(reference.slice(2));

  // 2. The admin types the reference into the leads search, and gives the lead to the colleague.
  const owner = await colleague;
  const adminContext = await browser.newContext({ baseURL, userAgent: CHROME, viewport: { width: 1280, height: 900 } });
  const admin = await adminBrowser(adminContext, ADMIN);
  await admin.goto("/admin/leads");
  await expect(admin.locator("html")).toHaveAttribute("dir", "rtl");
  const search = admin.getByRole("searchbox", { name: a.filters.search });
  await search.fill(reference);
  await search.press("Enter");
  const cards = admin.locator('main article[id^="enquiry-"]');
  await expect(cards).toHaveCount(1);
  const card = admin.locator(`#enquiry-${id}`);
  await expect(card).toContainText(reference);
  await expect(card.getByRole("heading", { level: 2 })).toHaveText(`${visitor.first} ${visitor.last}`);
  await card.getByLabel(a.leads.owner).selectOption({ label: owner.username });
  await expect(admin.getByText(a.leads.ownerSaved)).toBeVisible();
  await atBothWidths(admin, "leads-fa");

  // 3. A reply from a Persian template: preview, send.
  await card.getByRole("button", { name: a.replies.open, exact: true }).click();
  const dialog = admin.getByRole("dialog", { name: a.replies.title.replace("{{name}}", visitor.first) });
  await expect(dialog.getByText(a.replies.noMessages)).toBeVisible();
  await dialog.getByLabel(a.replies.template, { exact: true }).selectOption("firstAnswer");
  await dialog.getByRole("button", { name: a.replies.useTemplate }).click();
  const body = dialog.getByLabel(a.replies.body, { exact: true });
  await expect(body).toHaveValue(new RegExp(`^${visitor.first} گرامی،`));
  await expect(body).toHaveValue(new RegExp(`${owner.username}`));
  await expect(body).toHaveAttribute("dir", "rtl");
  await expect(dialog.getByLabel(a.replies.subject, { exact: true })).toHaveValue(new RegExp(reference));
  await dialog.getByRole("button", { name: a.replies.preview }).click();
  await expect(dialog.getByText(`${visitor.first} گرامی،`)).toBeVisible();
  // On a phone the previewed subject wraps; the reference in it stays whole ("(-E" / "00001)" was shown).
  await admin.setViewportSize({ width: 390, height: 900 });
  expect(await linesOf(dialog.locator("p", { hasText: reference }).first(), reference)).toBe(1);
  await admin.setViewportSize({ width: 1280, height: 900 });
  await atBothWidths(admin, "reply-dialog-fa");
  await dialog.getByRole("button", { name: a.replies.send }).click();
  await expect(admin.getByText(a.replies.sent)).toBeVisible();
  await expect(dialog.getByText(a.replies.outgoing.replace("{{name}}", ADMIN.username))).toBeVisible();

  // The email: right to left, threaded under the acknowledgement, answered to the owner.
  const reply = await mailTo(visitor.email, (m) => m.inReplyTo === acknowledgement.messageId);
  expect(reply.html).toMatch(/<html[^>]* dir="rtl"/);
  expect(reply.html).toMatch(/lang="fa"/);
  expect(reply.text).toContain(`${visitor.first} گرامی،`);
  expect([reply.references].flat()).toContain(acknowledgement.messageId);
  expect(reply.messageId).not.toBe(acknowledgement.messageId);
  const replyTo = (reply.replyTo?.value ?? []).map((v) => v.address);
  expect(replyTo[0]).toBe(ownerEmail);
  const leadAddress = replyTo.find((r) => r?.startsWith("reply+"));
  expect(leadAddress).toBeTruthy();

  // 4. The visitor answers; Mailgun posts the message to the inbound endpoint.
  const answerText = `ممنون! طرح کسب‌وکار را پیوست کردم (${tag}).`;
  const posted = await postInbound(
    page.request,
    await answer(visitor.email, leadAddress!, reply, answerText),
    visitor.email,
    leadAddress!,
  );
  expect(posted.status(), await posted.text()).toBe(200);
  await dialog.getByRole("button", { name: a.replies.close }).click();

  // 5. On the board, the lead becomes a client worth €4,500, typed as the panel itself writes the sum.
  await admin.getByRole("button", { name: a.leads.board, exact: true }).click();
  const boardCard = admin.getByTestId("lead-card").filter({ hasText: reference });
  await expect(boardCard).toContainText(owner.username);
  await boardCard.getByRole("button", { name: a.leads.moveTo }).click();
  await boardCard.getByRole("button", { name: a.leads.stages.client }).click();
  await boardCard.getByLabel(a.leads.clientValue).fill("۴٬۵۰۰");
  await boardCard
    .getByRole("button", {
      name: a.leads.moveToStage.replace("{{reference}}", reference).replace("{{stage}}", a.leads.stages.client),
    })
    .click();
  // In the client column, with its value as the Sources view writes euros.
  const clients = admin
    .getByTestId("lead-board")
    .getByRole("region", { name: new RegExp(`^${a.leads.stages.client}`) });
  await expect(clients.getByTestId("lead-card").filter({ hasText: reference })).toContainText(
    a.leads.valueOf.replace("{{value}}", FOUR_THOUSAND_FIVE_HUNDRED),
  );
  await atBothWidths(admin, "board-fa");
  const stored = (await (await admin.request.get(`/api/admin/submissions?q=${reference}`)).json()) as {
    stage: string;
    clientValueCents: number | null;
  }[];
  expect(stored).toMatchObject([{ stage: "client", clientValueCents: 450_000 }]);

  // 4 (seen). The answer is on the person's timeline, opened from the lead's card in the list.
  await admin.getByRole("button", { name: a.leads.list, exact: true }).click();
  await card.getByTestId("open-person").click();
  await expect(admin).toHaveURL(new RegExp(`/admin/person\\?ref=${reference}$`));
  const answerItem = admin.getByRole("listitem").filter({ hasText: answerText });
  await expect(answerItem).toBeVisible();
  await expect(answerItem).toContainText(a.person.items.messageIn.replace("{{reference}}", reference));
  // Its subject starts "Re:", its words are Persian: both read right to left (dir="auto" took the R).
  const answerLines = admin.getByTestId("timeline-message-in").locator(":scope > [dir]");
  await expect(answerLines).toHaveCount(2);
  for (const line of await answerLines.all()) await expect(line).toHaveAttribute("dir", "rtl");
  await expect(admin.getByTestId("timeline-enquiry")).toContainText(
    a.person.items.stageOwner.replace("{{stage}}", a.leads.stages.client).replace("{{owner}}", owner.username),
  );
  // The way back names the page as the navigation does (it said "back to the dashboard", a page gone).
  await expect(admin.getByRole("link", { name: "بازگشت به درخواست‌ها" })).toHaveAttribute("href", "/admin/leads");
  await atBothWidths(admin, "person-fa");
  expect(latinDigits(await admin.locator("main time").first().innerText())).toEqual([]);

  // 6. The Sources view credits the nowruz campaign with one client and its value, in Persian digits.
  await admin.getByRole("link", { name: a.layout.nav.sources }).first().click();
  await admin.getByRole("button", { name: a.sources.campaign, exact: true }).click();
  const row = admin
    .locator("section[aria-labelledby=by-campaign-title] [data-figures] tbody tr")
    .filter({ hasText: "nowruz" });
  await expect(row).toHaveCount(1);
  const cells = row.locator("td, th");
  const header = await admin
    .locator("section[aria-labelledby=by-campaign-title] [data-figures] thead th")
    .allInnerTexts();
  const cell = async (name: string) => (await cells.nth(header.indexOf(name)).innerText()).trim();
  expect(await cell(a.sources.clients)).toBe("۱");
  expect(await cell(a.sources.clientValue)).toBe(FOUR_THOUSAND_FIVE_HUNDRED);
  expect(await cell(a.sources.enquiries)).toBe("۱");
  expect(latinDigits(await row.innerText())).toEqual([]);
  await atBothWidths(admin, "sources-fa");
  await adminContext.close();
  expect(cspSeen, "Content-Security-Policy violations in the admin's browser").toEqual([]);
});
