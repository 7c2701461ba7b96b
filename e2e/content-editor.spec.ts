import { readFileSync } from "node:fs";
import path from "node:path";
import { type Browser, type Page } from "@playwright/test";
import { expect, test } from "./test";
import { expectNoViolations } from "./axe";
import { keepScreenshot, skipSplash } from "./helpers";
import { inviteAccount } from "./invite";
import { startProjectCopy, type ProjectCopy } from "./project-copy";

/**
 * The content editor end to end, in Chromium, against a throwaway copy of the project that is its own
 * git repository, served by `npm start` (through scripts/test/e2e-server.mjs, whose admin has a cost-4
 * fixture hash; the editors' own passwords are hashed by the server) on a port of its own: an editor signs in,
 * finds a Dutch text by a word of it, sees a placeholder check fail and pass, previews and publishes;
 * the commit is in that repository with the editor's name and a one-line diff, and after the rebuild
 * /nl/ shows the text. A Persian edit keeps its direction and digits and gets Persian letters. Two
 * editors' saves: changes to different texts both survive, the same text tells the second editor.
 */

// Its own `npm start`, on the port after the one the other browser tests use.
const PORT = Number(process.env.E2E_PORT || 8899) + 1;
const ORIGIN = `http://localhost:${PORT}`;
const ADMIN = { username: "admin", password: "content-e2e-admin-password" };
const NL = "src/i18n/locales/nl.json";
const FA = "src/i18n/locales/fa.json";
const ROOT = path.resolve(import.meta.dirname, "..");

let copy: ProjectCopy;
const git = (...args: string[]) => copy.git(...args);

test.describe.configure({ mode: "serial", timeout: 300_000 });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  copy = await startProjectCopy("content", PORT, ADMIN);
});

test.afterAll(async () => {
  await copy?.stop();
});

/** An editor account, invited by the admin through the API; its one-time password. */
async function invite(browser: Browser, username: string): Promise<string> {
  const context = await browser.newContext({ baseURL: ORIGIN });
  const login = await context.request.post("/api/login", { data: ADMIN });
  expect(login.status()).toBe(200);
  const password = await inviteAccount(context.request, ADMIN.password, { username, role: "editor" }, ORIGIN);
  await context.close();
  return password;
}

async function signIn(browser: Browser, username: string, password: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: ORIGIN });
  await skipSplash(context);
  const page = await context.newPage();
  await page.goto("/admin/login");
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Login" }).click();
  // The heading comes with the texts (read from the working copy): on a loaded machine, after the rebuilds
  // of the tests before, that can take longer than a click's usual wait.
  await expect(page.getByRole("heading", { level: 1, name: "Site texts" })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText(`Signed in as ${username} (editor)`)).toBeVisible();
  return page;
}

const field = (page: Page, key: string, language: "English" | "Dutch" | "Persian") =>
  page.locator(`[data-key="${key}"]`).first().getByLabel(language, { exact: true });

async function search(page: Page, words: string) {
  await page.getByLabel("Search texts").fill(words);
}

/**
 * Publishes, then waits for this save's commit only; the site's rebuild goes on (a commit during a
 * build gets a build of its own after it), for a test that checks the repository, not the site.
 */
async function publishAndCommit(page: Page) {
  const before = git("rev-parse", "HEAD");
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  await expect.poll(() => git("rev-parse", "HEAD")).not.toBe(before);
  const state = page.locator("[data-state]");
  await expect(state).toHaveAttribute("data-commit", git("rev-parse", "HEAD"));
  return state;
}

/** Publishes, then waits for this save's commit and its rebuild: "Published at …". */
async function publishAndWait(page: Page) {
  const state = await publishAndCommit(page);
  await expect(state).toHaveAttribute("data-state", /published|failed/, { timeout: 180_000 });
  await expect(state).toHaveText(/^Published at \d\d:\d\d\.$/);
}

test("an editor finds a Dutch text, sees its checks, previews it and publishes it; /nl/ shows it after the rebuild", async ({
  browser,
}) => {
  const page = await signIn(browser, "marketing", await invite(browser, "marketing"));
  await expectNoViolations(page);

  // Find the Dutch footer line by a word of it.
  await search(page, "voorbehouden");
  await expect(page.getByRole("status").filter({ hasText: "1 text found" })).toBeVisible();
  const dutch = field(page, "footer.copyright", "Dutch");
  await expect(dutch).toHaveValue("© {{year}} {{brand}}. Alle rechten voorbehouden.");
  await expect(dutch).toHaveAttribute("dir", "ltr");

  // A placeholder written with one brace: the check says so beside the field, in plain words.
  await dutch.fill("© {{year} {{brand}}. Alle rechten blijven voorbehouden.");
  const notes = page.locator(`[id="${await dutch.getAttribute("id")}-notes"]`);
  await expect(notes).toContainText("a placeholder needs two braces on each side, {{year}}");
  await expect(notes).toContainText("lacks {{year}}, which the English has");
  await expect(dutch).toHaveAttribute("aria-invalid", "true");
  await expectNoViolations(page);
  await dutch.fill("© {{year}} {{brand}}. Alle rechten blijven voorbehouden.");
  await expect(notes).toBeEmpty();
  await expect(dutch).toHaveAttribute("aria-invalid", "false");
  await expect(page.getByText("1 unsaved change")).toBeVisible();

  // The preview: the Dutch home page at phone and desktop width, with the unsaved text in its footer.
  await page.getByRole("button", { name: "Preview" }).click();
  const dialog = page.getByRole("dialog", { name: "Preview with your unsaved changes" });
  await expect(dialog.getByRole("button", { name: "Dutch" })).toHaveAttribute("aria-pressed", "true");
  const year = new Date().getFullYear();
  for (const device of ["phone", "desktop"]) {
    const frame = page.frameLocator(`iframe[title="Preview: Dutch, ${device === "phone" ? "Phone" : "Desktop"}"]`);
    const line = frame.locator("[data-preview-changed]", { hasText: "Alle rechten blijven voorbehouden." });
    await expect(line).toHaveText(new RegExp(`© ${year} \\S+\\. Alle rechten blijven voorbehouden\\.`));
    await expect(frame.locator("html")).toHaveAttribute("lang", "nl");
  }
  // Sandboxed (issue 29: the srcDoc frame had no sandbox): no scripts, forms, pop-ups or navigation of
  // the admin page; only the same origin, so the preview can adopt the page's stylesheets.
  for (const frame of await dialog.locator("iframe").all())
    await expect(frame).toHaveAttribute("sandbox", "allow-same-origin");
  // The phone frame lays the page out at phone width (the site's own stylesheets apply inside it).
  const phoneWidth = await page
    .frameLocator('iframe[title="Preview: Dutch, Phone"]')
    .locator("body")
    .evaluate((body) => body.ownerDocument.documentElement.clientWidth);
  expect(phoneWidth).toBeLessThanOrEqual(390);
  await dialog.getByRole("button", { name: "Close the preview" }).click();

  // Publish: one commit in the throwaway repository, by the editor, one line of nl.json.
  const before = git("rev-parse", "HEAD");
  await publishAndWait(page);
  const commit = git("rev-parse", "HEAD");
  expect(commit).not.toBe(before);
  expect(git("log", "-1", "--format=%an|%s")).toBe("marketing|Texts: footer.copyright (Dutch)");
  expect(git("show", "--numstat", "--format=", commit)).toBe(`1\t1\t${NL}`);
  expect(git("show", "--format=", "-U0", commit)).toContain(
    '+    "copyright": "© {{year}} {{brand}}. Alle rechten blijven voorbehouden.",',
  );

  // The rebuilt site shows it.
  const visitor = await page.context().newPage();
  await visitor.goto("/nl/");
  await expect(visitor.locator("footer")).toContainText("Alle rechten blijven voorbehouden.");
  await visitor.close();
});

test("a Persian edit keeps its direction and digits and is written with Persian letters", async ({ browser }) => {
  const page = await signIn(browser, "nasrin", await invite(browser, "nasrin"));
  await search(page, "hero.successCard.text");
  const persian = field(page, "hero.successCard.text", "Persian");
  await expect(persian).toHaveAttribute("dir", "rtl");
  await expect(persian).toHaveAttribute("lang", "fa");
  // Typed with an Arabic keyboard: Arabic yeh, kaf and digit six.
  await persian.fill("يك مشتري ما در ٦ ماه به اروپا رسيد");
  await expect(persian).toHaveValue("یک مشتری ما در ۶ ماه به اروپا رسید");
  await expect(page.locator(`[id="${await persian.getAttribute("id")}-notes"]`)).toBeEmpty();
  await page.getByRole("button", { name: "Preview" }).click();
  const frame = page.frameLocator('iframe[title="Preview: Persian, Phone"]');
  await expect(frame.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(
    frame.locator("[data-preview-changed]", { hasText: "یک مشتری ما در ۶ ماه به اروپا رسید" }),
  ).toBeVisible();
  await page.getByRole("button", { name: "Close the preview" }).click();
  await publishAndWait(page);
  expect(git("show", "--numstat", "--format=", "HEAD")).toBe(`1\t1\t${FA}`);
  expect(git("show", "HEAD:src/i18n/locales/fa.json")).toContain('"text": "یک مشتری ما در ۶ ماه به اروپا رسید"');
  const visitor = await page.context().newPage();
  await visitor.goto("/fa/");
  await expect(visitor.locator("html")).toHaveAttribute("dir", "rtl");
  // The page isolates number runs in Persian text (U+2068…U+2069), so "۶" keeps its place.
  const shown = () =>
    visitor
      .locator("main")
      .innerText()
      .then((text) => text.replace(/[\u2066-\u2069]/g, ""));
  await expect.poll(shown).toContain("یک مشتری ما در ۶ ماه به اروپا رسید");
  await visitor.close();
});

test("two editors save at once: different texts both survive; the same text tells the second editor", async ({
  browser,
}) => {
  const first = await signIn(browser, "anna", await invite(browser, "anna"));
  const second = await signIn(browser, "bram", await invite(browser, "bram"));
  for (const page of [first, second]) await search(page, "hero.");

  // The saves are about the repository: each waits for its commit, not the site's rebuild (the last
  // publish below waits for the one build that has them all).
  await field(first, "hero.badge", "Dutch").fill("Van Teheran en Amsterdam naar Europa");
  await publishAndCommit(first);
  // The second editor loaded the texts before that save, and changes another text of the same file.
  await field(second, "hero.contactUs", "Dutch").fill("Neem nu contact op");
  await publishAndCommit(second);
  const nl = git("show", `HEAD:${NL}`);
  expect(nl).toContain('"badge": "Van Teheran en Amsterdam naar Europa",');
  expect(nl).toContain('"contactUs": "Neem nu contact op",');
  expect(git("log", "-2", "--format=%an")).toBe("bram\nanna");

  // Both change the same text: the first one's is published, the second is told what it is now.
  await field(first, "hero.exploreServices", "Dutch").fill("Onze diensten");
  await field(second, "hero.exploreServices", "Dutch").fill("Alle diensten");
  await publishAndWait(first);
  const head = git("rev-parse", "HEAD");
  await second.getByRole("button", { name: "Publish", exact: true }).click();
  const alert = second.getByRole("alert").filter({ hasText: "Someone else changed these texts since you opened them" });
  await expect(alert).toContainText("Now on the site: Onze diensten");
  await expect(alert).toContainText("Yours: Alle diensten");
  expect(git("rev-parse", "HEAD")).toBe(head);
  await expectNoViolations(second);
});

test("a text found by its words stays while it is edited; the preview keeps the space after it, within the CSP", async ({
  browser,
}) => {
  const page = await signIn(browser, "writer", await invite(browser, "writer"));
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|violates/i.test(message.text())) violations.push(message.text());
  });
  // The walk-through's steps (M1): search by the words, then edit the Dutch box.
  await search(page, "Breng je bedrijf");
  await expect(page.getByRole("status").filter({ hasText: "1 text found" })).toBeVisible();
  const dutch = field(page, "hero.title", "Dutch");
  await dutch.click();
  await dutch.press("End");
  await dutch.press("Backspace");
  await expect(dutch).toHaveValue("Breng je bedrij");
  await expect(dutch).toBeFocused();
  await expect(page.getByRole("status").filter({ hasText: "1 text found" })).toBeVisible();
  await dutch.fill("");
  await dutch.pressSequentially("Breng jouw onderneming");
  await expect(dutch).toBeFocused();
  await expect(dutch).toHaveValue("Breng jouw onderneming");
  await expect(page.getByText("1 unsaved change")).toBeVisible();

  // The preview (m12, m4): the edited title keeps its space before "naar Europa"; no CSP refusal.
  await page.getByRole("button", { name: "Preview" }).click();
  const frame = page.frameLocator('iframe[title="Preview: Dutch, Desktop"]');
  const title = frame.locator("h1");
  await expect(title).toHaveAttribute("data-preview-changed", "");
  await expect
    .poll(() => title.innerText().then((text) => text.replace(/\s+/g, " ").trim()))
    .toBe("Breng jouw onderneming naar Europa");
  await page.getByRole("button", { name: "Close the preview" }).click();
  expect(violations).toEqual([]);
  await page.getByRole("button", { name: "Discard changes" }).click();
  await page.context().close();
});

test("leaving with an unsaved edit warns; on return the draft is offered back; a full storage is told, not lost", async ({
  browser,
}) => {
  const drafterPassword = await invite(browser, "drafter");
  const page = await signIn(browser, "drafter", drafterPassword);
  await search(page, "hero.badge");
  const dutch = field(page, "hero.badge", "Dutch");
  await dutch.fill("Van Teheran naar heel Europa");
  // The page has taken the edit in (a reload sent before the input event is handled finds nothing to
  // warn about, and a person never reloads that fast).
  await expect(page.getByText("1 unsaved change")).toBeVisible();
  // A reload asks first (beforeunload); going ahead keeps the draft in this browser.
  const asked: string[] = [];
  page.on("dialog", (dialog) => {
    asked.push(dialog.type());
    void dialog.accept();
  });
  await page.reload();
  expect(asked).toEqual(["beforeunload"]);
  const offer = page.getByRole("region", { name: "Unsaved changes from your last visit" });
  // The texts come from the working copy: on a loaded machine that can take longer than a click's wait.
  await expect(offer).toContainText("1 unsaved change was kept in this browser", { timeout: 60_000 });
  await expectNoViolations(page);
  await offer.getByRole("button", { name: "Restore them" }).click();
  await expect(offer).toBeHidden();
  await search(page, "hero.badge");
  await expect(field(page, "hero.badge", "Dutch")).toHaveValue("Van Teheran naar heel Europa");
  await expect(page.getByText("1 unsaved change")).toBeVisible();

  // Signing out with it asks too; the draft waits for the next sign-in.
  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/admin\/login/);
  expect(asked).toEqual(["beforeunload", "confirm"]);
  await page.getByLabel("Username").fill("drafter");
  await page.getByLabel("Password").fill(drafterPassword);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(offer).toContainText("1 unsaved change was kept in this browser", { timeout: 60_000 });

  // Hostile: a 5 MB draft in this browser's storage, and the storage full. Neither breaks the page.
  const filled = await page.evaluate(() => {
    const name = "texts-draft.v1:drafter:nl:hero.exploreServices";
    const big = "x".repeat(5 * 1024 * 1024);
    let stored = 0;
    try {
      localStorage.setItem(name, JSON.stringify({ value: big, base: "", at: new Date().toISOString() }));
      stored = big.length;
    } catch {
      localStorage.setItem(name, big.slice(0, 2 * 1024 * 1024));
      stored = 2 * 1024 * 1024;
    }
    for (let i = 0, chunk = "y".repeat(256 * 1024); chunk.length > 16; i++)
      try {
        localStorage.setItem(`filler-${i}`, chunk);
      } catch {
        chunk = chunk.slice(0, chunk.length / 2);
      }
    return stored;
  });
  expect(filled).toBeGreaterThanOrEqual(2 * 1024 * 1024);
  asked.length = 0;
  await page.reload();
  await expect(offer).toContainText("1 kept change cannot be offered back", { timeout: 60_000 });
  await expect(offer).toContainText("1 unsaved change was kept in this browser");
  await offer.getByRole("button", { name: "Restore them" }).click();
  await search(page, "hero.contactUs");
  const contact = field(page, "hero.contactUs", "Dutch");
  await contact.fill("Neem vandaag contact op");
  await expect(
    page.getByRole("alert").filter({ hasText: "This browser could not keep your change to hero.contactUs" }),
  ).toBeVisible();
  await expect(contact).toHaveValue("Neem vandaag contact op");
  await expect(page.getByText("2 unsaved changes")).toBeVisible();
  await offer.getByRole("button", { name: "Remove them from this browser" }).click();
  expect(await page.evaluate(() => localStorage.getItem("texts-draft.v1:drafter:nl:hero.exploreServices"))).toBeNull();
  await page.evaluate(() => {
    for (const name of Object.keys(localStorage)) if (name.startsWith("filler-")) localStorage.removeItem(name);
  });
  await page.getByRole("button", { name: "Discard changes" }).click();
  expect(await page.evaluate(() => Object.keys(localStorage).filter((n) => n.startsWith("texts-draft")))).toEqual([]);
  await page.context().close();
});

test("publish, then undo: the site shows the old text again, and the history has both commits", async ({ browser }) => {
  const page = await signIn(browser, "undoer", await invite(browser, "undoer"));
  await search(page, "hero.description");
  const english = field(page, "hero.description", "English");
  const old = await english.inputValue();
  await english.fill("We help founders from Iran and the EU grow across Europe, one step at a time.");
  await publishAndWait(page);
  const published = git("rev-parse", "HEAD");
  const visitor = await page.context().newPage();
  await visitor.goto("/en/");
  await expect(visitor.locator("main")).toContainText("one step at a time");

  await page.getByText("Published changes", { exact: true }).click();
  const entry = page.locator(`li[data-commit="${published}"]`);
  await expect(entry).toContainText("undoer published 1 text");
  await expect(entry).toContainText("one step at a time");
  await entry.getByRole("button", { name: "Undo" }).click();
  await entry.getByRole("button", { name: "Yes, undo it" }).click();
  await expect(page.getByText("Undone: the texts as they were before are published again.")).toBeVisible();
  await expect
    .poll(() => git("log", "-1", "--format=%s"))
    .toBe(`Undo ${published.slice(0, 7)}: hero.description (English)`);
  const state = page.locator("[data-state]");
  await expect(state).toHaveAttribute("data-commit", git("rev-parse", "HEAD"));
  await expect(state).toHaveAttribute("data-state", "published", { timeout: 180_000 });
  await visitor.reload();
  await expect(visitor.locator("main")).not.toContainText("one step at a time");
  await expect(visitor.locator("main")).toContainText(old.slice(0, 30));
  await expect(field(page, "hero.description", "English")).toHaveValue(old);

  const list = page.getByTestId("text-history");
  await expect(list.locator(":scope > li").first()).toContainText(`undoer undid ${published.slice(0, 7)} (1 text)`);
  await expect(entry).toContainText("Undone by undoer");
  await expect(entry.getByRole("button", { name: "Undo" })).toHaveCount(0);
  expect(git("log", "-2", "--format=%an|%s")).toBe(
    `undoer|Undo ${published.slice(0, 7)}: hero.description (English)\nundoer|Texts: hero.description (English)`,
  );
  await expectNoViolations(page);
  await page.context().close();
});

test("the kept drafts and the history at phone and desktop width in three panel languages (screenshots)", async ({
  browser,
}) => {
  const page = await signIn(browser, "viewer", await invite(browser, "viewer"));
  await page.evaluate(() =>
    localStorage.setItem(
      "texts-draft.v1:viewer:nl:hero.badge",
      JSON.stringify({ value: "Van Teheran naar Europa", base: "", at: new Date().toISOString() }),
    ),
  );
  for (const lang of ["en", "nl", "fa"]) {
    await page.evaluate((l) => localStorage.setItem("admin-language", l), lang);
    await page.reload();
    const offer = page.locator("section[aria-labelledby=drafts-heading]");
    await expect(offer).toBeVisible({ timeout: 60_000 });
    await page.locator("main details summary").first().click();
    await expect(page.locator("main details[open] li, main details[open] p.text-muted").nth(1)).toBeVisible();
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 1100 });
      await keepScreenshot(page, { path: test.info().outputPath(`editor-${lang}-${width}.png`) });
    }
    await expectNoViolations(page);
    await page.setViewportSize({ width: 1280, height: 800 });
  }
  await page.context().close();
});

test("the public pages load none of the editor's code", async () => {
  const dist = path.join(ROOT, "dist");
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(path.join(dist, file), "utf8");
    for (const m of code.matchAll(/(?:from|import)\s*\(?\s*"\.\/([^"]+\.js)"/g)) visit(`_astro/${m[1]}`);
  };
  for (const lang of ["en", "nl", "fa"])
    for (const page of ["", "startup-visa/", "privacy/"]) {
      const html = readFileSync(path.join(dist, lang, page, "index.html"), "utf8");
      for (const m of html.matchAll(/\/(_astro\/[^"]+\.js)/g)) visit(m[1]);
    }
  expect(seen.size).toBeGreaterThan(5);
  const carrying = [...seen].filter((file) =>
    /content-editor-language|needs two braces|Mark reviewed/.test(readFileSync(path.join(dist, file), "utf8")),
  );
  expect(carrying).toEqual([]);
});
