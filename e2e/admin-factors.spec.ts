import type { Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { expect, test } from "./test";
import { expectNoViolations } from "./axe";
import { inviteAccount } from "./invite";
import { keepScreenshot } from "./helpers";

/**
 * The second factor in a real browser: a person sets up the authenticator app from the panel (the
 * code is computed here from the key the page shows) and signs in with password and code; another
 * registers a passkey with Chromium's virtual authenticator and signs in with it, no password. Each
 * test invites its own editor, so the shared admin account keeps signing in with its password.
 */

const ADMIN = { username: "admin", password: "e2e-admin-password" };

/** A new editor account (invited by the admin through the API); its username and the password it chose. */
async function invite(page: Page, prefix: string): Promise<{ username: string; password: string }> {
  const request = page.request;
  const signIn = await request.post("/api/login", { data: ADMIN });
  expect(signIn.status(), await signIn.text()).toBe(200);
  const username = `${prefix}${Math.random().toString(36).slice(2, 8)}`;
  const password = await inviteAccount(request, ADMIN.password, { username, role: "editor" });
  await page.context().clearCookies();
  return { username, password };
}

const codeAt = (secret: string, ms: number) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30, timestamp: ms });

async function passwordSignIn(page: Page, account: { username: string; password: string }) {
  await page.goto("/admin/login");
  await page.getByLabel("Username").fill(account.username);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Login" }).click();
}

/** Answers the step-up dialog with the password (what protects an account changes only with a fresh proof). */
async function confirmItIsMe(page: Page, password: string) {
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  await dialog.locator("input").fill(password);
  await dialog.locator("button[type=submit]").click();
  await expect(dialog).toBeHidden();
}

test.describe("the second factor", () => {
  test("set up the authenticator app with its QR code, then sign in with password and code", async ({ page }) => {
    test.slow(); // an invitation, a step-up and three sign-ins: five bcrypt comparisons on a shared machine
    const account = await invite(page, "totp");
    await passwordSignIn(page, account);
    await page.waitForURL(/\/admin\/texts/);

    await page.goto("/admin/factors");
    await expect(page.getByRole("heading", { name: "Second factor", level: 1 })).toBeVisible();
    await expect(page.getByTestId("totp-status")).toContainText("Off");
    await expectNoViolations(page);
    await page.getByRole("button", { name: "Set up the app" }).click();
    await confirmItIsMe(page, account.password);
    await expect(page.getByRole("img", { name: /QR code/ })).toBeVisible();
    const secret = (await page.getByTestId("totp-secret").textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const code = page.getByLabel("Code from the app");
    await expect(code).toHaveAttribute("autocomplete", "one-time-code");
    await expect(code).toHaveAttribute("inputmode", "numeric");
    await expectNoViolations(page);
    await code.fill("000000" === codeAt(secret, Date.now()) ? "111111" : "000000");
    await page.getByRole("button", { name: "Switch on" }).click();
    await expect(page.getByText(/That code is not right/)).toBeVisible();
    await code.fill(codeAt(secret, Date.now()));
    await page.getByRole("button", { name: "Switch on" }).click();
    const codes = page.getByTestId("recovery-codes").getByRole("listitem");
    await expect(codes).toHaveCount(10);
    await expect(page.getByRole("link", { name: "Download" })).toHaveAttribute("download", "recovery-codes.txt");
    await expectNoViolations(page);
    await page.getByRole("button", { name: "I have saved them" }).click();
    await expect(page.getByTestId("totp-status")).toContainText("On");
    await expect(page.getByTestId("totp-status")).toContainText("10 recovery codes left");

    // Signed out: the password alone now leads to the second step.
    await page.context().clearCookies();
    await passwordSignIn(page, account);
    const step = page.getByTestId("second-step");
    await expect(step.getByRole("heading", { name: "Second step" })).toBeVisible();
    const field = step.getByLabel("Code", { exact: true });
    await expect(field).toHaveAttribute("autocomplete", "one-time-code");
    await expect(field).toHaveAttribute("inputmode", "numeric");
    await expect(step.getByRole("button", { name: "Use a recovery code" })).toBeVisible();
    await expectNoViolations(page);
    expect((await page.request.get("/api/user")).status()).toBe(401);
    // The enrolment used this step's code: the next step's is the one not used yet.
    await field.fill(codeAt(secret, Date.now() + 30_000));
    await step.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL(/\/admin\/texts/);
    const me = (await (await page.request.get("/api/user")).json()) as { user: { username: string } };
    expect(me.user.username).toBe(account.username);
  });

  test("register a passkey with a virtual authenticator and sign in with it, without a password", async ({ page }) => {
    test.slow(); // an invitation, a step-up and two sign-ins
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
      },
    });
    const account = await invite(page, "passkey");
    await passwordSignIn(page, account);
    await page.waitForURL(/\/admin\/texts/);

    await page.goto("/admin/factors");
    await expect(page.getByTestId("passkeys")).toContainText("No passkeys yet.");
    await page.getByLabel("Name of the passkey").fill("E2E laptop");
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await confirmItIsMe(page, account.password);
    const row = page.getByTestId("passkey");
    await expect(row).toHaveCount(1);
    await expect(row).toContainText("E2E laptop");
    await expect(row).toContainText("never used");
    await expectNoViolations(page);

    await page.context().clearCookies();
    await page.goto("/admin/login");
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await page.waitForURL(/\/admin\/texts/);
    const me = (await (await page.request.get("/api/user")).json()) as { user: { username: string } };
    expect(me.user.username).toBe(account.username);

    await page.goto("/admin/factors");
    await expect(page.getByTestId("passkey")).toContainText("last used");
  });

  for (const lang of ["en", "nl", "fa"] as const) {
    test(`the factors page and the second step fit at 390 and 1280 px in ${lang}`, async ({ page }, testInfo) => {
      // No page is open while the admin invites: the login page would follow the admin's session away.
      const account = await invite(page, `look${lang}`);
      await page.addInitScript((language) => localStorage.setItem("admin-language", language), lang);
      const res = await page.request.post("/api/login", { data: account });
      expect(res.status()).toBe(200);
      // The account's own choice wins over this browser's once the page knows who is signed in (an
      // invited account starts in the inviter's language), so the account is set to this language too.
      expect((await page.request.patch("/api/user", { data: { language: lang } })).status()).toBe(200);
      for (const width of [390, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto("/admin/factors");
        await expect(page.getByTestId("factors")).toBeVisible();
        await expect(page.locator("html")).toHaveAttribute("lang", lang);
        await page.getByTestId("totp").getByRole("button").first().click();
        if (width === 390) await confirmItIsMe(page, account.password);
        await expect(page.getByTestId("totp-qr")).toBeVisible();
        // Inside this island (the layout's header is the layout's own: e2e/no-sideways-scroll.spec.ts).
        const wide = await page.evaluate(() =>
          [...document.querySelectorAll("[data-testid=factors] *")]
            .filter(
              (e) => e.getBoundingClientRect().right > window.innerWidth + 0.5 || e.getBoundingClientRect().left < -0.5,
            )
            .map((e) => `${e.tagName} ${e.textContent?.slice(0, 40)}`),
        );
        expect(wide, `wider than ${width}px`).toEqual([]);
        await keepScreenshot(page, { path: testInfo.outputPath(`factors-${lang}-${width}.png`), fullPage: true });
        if (width === 1280) await expectNoViolations(page);
      }
    });
  }
});
