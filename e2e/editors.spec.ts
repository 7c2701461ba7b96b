import { expect, test } from "./test";
import { expectNoViolations } from "./axe";
import { ADMIN, uniqueTag } from "./helpers";
import { inviteAccount } from "./invite";

/**
 * People and roles: an admin invites an editor (the invitation form and its step-up are step-up.spec.ts's);
 * the editor signs in with the same form, sees no lead, meeting, subscriber or privacy tool, and the API
 * refuses those to the session.
 */
test("an admin invites an editor, who signs in and sees the site's texts only", async ({ page, browser }) => {
  const response = await page.request.post("/api/login", { data: ADMIN });
  expect(response.status(), await response.text()).toBe(200);
  await page.goto("/admin/security");
  const username = `editor${uniqueTag()}`;
  const password = await inviteAccount(page.request, ADMIN.password, { username, role: "editor" });
  await page.reload();
  await expect(page.locator("main").getByText(username).first()).toBeVisible();
  await expectNoViolations(page, "#people");

  const context = await browser.newContext({ baseURL: new URL(page.url()).origin });
  const editor = await context.newPage();
  await editor.goto("/admin/login");
  await editor.getByLabel("Username").fill(username);
  await editor.getByLabel("Password").fill(password);
  await editor.getByRole("button", { name: "Login" }).click();
  await expect(editor.getByRole("heading", { level: 1, name: "Site texts" })).toBeVisible();
  await expect(editor.getByText(`Signed in as ${username} (editor)`)).toBeVisible();
  // The navigation lists no page an editor may not open.
  await expect(
    editor.getByRole("navigation", { name: "Admin pages" }).getByRole("link", { name: "Leads" }),
  ).toHaveCount(0);
  await expect(editor.locator("#privacy, #people")).toHaveCount(0);
  for (const width of [360, 1280]) {
    await editor.setViewportSize({ width, height: 800 });
    await expectNoViolations(editor);
  }
  for (const path of ["/api/admin/submissions", "/api/admin/meetings", "/api/admin/newsletter", "/api/admin/users"]) {
    expect((await editor.request.get(path)).status(), path).toBe(403);
  }
  await context.close();
});
