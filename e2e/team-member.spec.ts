import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "./test";
import { expectNoViolations } from "./axe";
import { keepScreenshot, skipSplash } from "./helpers";
import { inviteAccount } from "./invite";
import { startProjectCopy, type ProjectCopy } from "./project-copy";

/**
 * "Add a team member" on the content editor's Team view (issue 43), in Chromium, against a throwaway
 * copy of the project that is its own git repository, served by `npm start` on a port of its own (as
 * content-editor.spec.ts): the form at phone and desktop width in three panel languages (screenshots,
 * axe), its own checks, then an editor adds a member, the commit is in the repository by that editor,
 * and an admin links the member as a consultant at once, with no restart of the server.
 */

// Three ports up: the next is content-editor.spec.ts's, which may run beside this one on the other
// worker, and the one after the consultants' server (playwright.config.ts).
const PORT = Number(process.env.E2E_PORT || 8899) + 3;
const ORIGIN = `http://localhost:${PORT}`;
const ADMIN = { username: "admin", password: "team-e2e-admin-password" };
const TEAM = "src/data/team.json";
const ROOT = path.resolve(import.meta.dirname, "..");

let copy: ProjectCopy;
let project: string;
const git = (...args: string[]) => copy.git(...args);

test.describe.configure({ mode: "serial", timeout: 300_000 });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  copy = await startProjectCopy("team", PORT, ADMIN);
  project = copy.project;
});

test.afterAll(async () => {
  await copy?.stop();
});

test("an editor adds a team member in three languages; an admin links them as a consultant without a restart", async ({
  browser,
}) => {
  const adminContext = await browser.newContext({ baseURL: ORIGIN });
  const admin = adminContext.request;
  expect((await admin.post("/api/login", { data: ADMIN })).status()).toBe(200);
  const password = await inviteAccount(admin, ADMIN.password, { username: "marketing", role: "editor" }, ORIGIN);

  const context = await browser.newContext({ baseURL: ORIGIN });
  await skipSplash(context);
  const page = await context.newPage();
  await page.goto("/admin/login");
  await page.getByLabel("Username").fill("marketing");
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Site texts" })).toBeVisible({ timeout: 60_000 });

  const form = page.getByTestId("add-team-member");
  const copy = (lang: string) =>
    JSON.parse(readFileSync(path.join(ROOT, `src/i18n/locales/${lang}.json`), "utf8")).admin.editor;
  for (const lang of ["nl", "fa", "en"]) {
    await page.getByTestId("panel-language").selectOption(lang);
    await expect(page.locator("html")).toHaveAttribute("lang", lang);
    await page.getByRole("button", { name: copy(lang).views.team, exact: true }).click();
    await expect(form.getByRole("heading", { name: copy(lang).addMember.title })).toBeVisible({ timeout: 60_000 });
    // Its own checks first, in the panel's language: every text, a language and a service.
    await form.getByRole("button", { name: copy(lang).addMember.submit }).click();
    await expect(form.getByText(copy(lang).addMember.fixFirst)).toBeVisible();
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 1000 });
      await form.scrollIntoViewIfNeeded();
      // The publish bar is fixed at the bottom: hidden for the picture (through the CSSOM, which the
      // site's Content-Security-Policy allows, unlike an injected stylesheet), so the whole form shows.
      const bar = page.locator("div.fixed.bottom-0");
      await bar.evaluate((el) => (el.style.visibility = "hidden"));
      await keepScreenshot(form, { path: test.info().outputPath(`team-${lang}-${width}.png`) });
      await bar.evaluate((el) => (el.style.visibility = ""));
    }
    await expectNoViolations(page);
  }

  // English panel: the form, filled in.
  const text = (legend: string, language: string) =>
    form.getByRole("group", { name: legend }).getByLabel(language, { exact: true });
  await text("Name", "English").fill("Lotte de Vries");
  await expect(form.getByText("Their id: lotte-de-vries")).toBeVisible();
  await text("Name", "Dutch").fill("Lotte de Vries");
  await text("Name", "Persian").fill("لوته د فریس");
  await expect(text("Name", "Persian")).toHaveAttribute("dir", "rtl");
  await text("Role", "English").fill("Immigration consultant");
  await text("Role", "Dutch").fill("Immigratieadviseur");
  await text("Role", "Persian").fill("مشاور مهاجرت");
  await text("Short biography", "English").fill("Guides founders through the startup visa.");
  await text("Short biography", "Dutch").fill("Begeleidt oprichters bij het startupvisum.");
  await text("Short biography", "Persian").fill("بنیان‌گذاران را در مسیر ویزای استارتاپ همراهی می‌کند.");
  await form.getByRole("group", { name: "Languages they hold meetings in" }).getByLabel("Dutch").check();
  await form.getByRole("group", { name: "Services they take" }).getByRole("checkbox").first().check();
  const before = git("rev-parse", "HEAD");
  await form.getByRole("button", { name: "Add and publish" }).click();
  await expect(form.getByText("Lotte de Vries is added and being published.")).toBeVisible({ timeout: 30_000 });
  expect(git("rev-parse", "HEAD")).not.toBe(before);
  expect(git("log", "-1", "--format=%an|%s")).toBe("marketing|Team: add Lotte de Vries (lotte-de-vries)");
  expect(JSON.parse(readFileSync(path.join(project, TEAM), "utf8")).at(-1).id).toBe("lotte-de-vries");
  // The editor lists the new member's texts at once, and the same name is refused now.
  await expect(page.getByRole("heading", { level: 3, name: "Lotte de Vries" })).toBeVisible();
  await text("Name", "English").fill("Lotte de  Vries");
  await expect(form.getByText("There is a team member with the id lotte-de-vries already.")).toHaveCount(0);
  await form.getByRole("button", { name: "Add and publish" }).click();
  await expect(form.getByText("There is a team member with the id lotte-de-vries already.")).toBeVisible();

  // The running server knows the member: an admin links them to the editor's account, no restart.
  const users = (await (await admin.get("/api/admin/users")).json()) as { id: number; username: string }[];
  const account = users.find((u) => u.username === "marketing")!;
  const linked = await admin.post("/api/admin/consultants", {
    data: { consultant: "lotte-de-vries", userId: account.id },
    headers: { origin: ORIGIN },
  });
  expect(linked.status(), await linked.text()).toBe(201);
  await context.close();
  await adminContext.close();
});
