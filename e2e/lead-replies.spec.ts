import { readFileSync } from "node:fs";
import path from "node:path";
import { createHmac, randomBytes } from "node:crypto";
import MailComposer from "nodemailer/lib/mail-composer/index.js";
import { expect, test } from "./test";
import { ADMIN, formData, toasts, uniqueTag } from "./helpers";
import { expectNoViolations } from "./axe";

/**
 * The lead desk in the browser: an admin opens Reply on a Persian lead's card, fills a template in,
 * previews and edits it, sends it; the lead's answer, posted to the running server as Mailgun's
 * route posts it (signed with the key `npm start` generated into DATA_DIR), shows in the dialog.
 */

function mime(inReplyTo: string): Promise<Buffer> {
  const composer = new MailComposer({
    from: "lead@example.com",
    to: "hello@bridgewise.eu",
    subject: "Re: مدارک",
    text: "سلام، مدارک را فرستادم.",
    inReplyTo,
    references: inReplyTo,
    attachments: [{ filename: "plan.pdf", content: Buffer.from("%PDF-1.4"), contentType: "application/pdf" }],
  });
  return new Promise((resolve, reject) => composer.compile().build((e, m) => (e ? reject(e) : resolve(m))));
}

test("an admin replies to a lead from its card and sees the lead's answer", async ({ page, request }) => {
  test.slow();
  const tag = uniqueTag();
  const body = await formData(request, {
    firstName: "مریم",
    lastName: `Replies ${tag}`,
    email: `replies-${tag}@example.com`,
    service: "startup-visa",
    message: "A message long enough to pass.",
    language: "fa",
  });
  const created = await request.post("/api/contact", { data: body });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: number };

  expect((await page.request.post("/api/login", { data: ADMIN })).status()).toBe(200);
  await page.goto(`/admin/submissions?q=${tag}`);
  const card = page.getByRole("article").filter({ hasText: tag });
  await card.getByRole("button", { name: "Reply" }).click();
  const dialog = page.getByRole("dialog", { name: "Reply to مریم" });
  await expect(dialog.getByText("No messages yet.")).toBeVisible();

  await dialog.getByLabel("Template", { exact: true }).selectOption("askDocuments");
  await dialog.getByRole("button", { name: "Use this template" }).click();
  const text = dialog.getByLabel("Message", { exact: true });
  await expect(text).toHaveValue(/^مریم گرامی،/);
  await expect(text).toHaveAttribute("dir", "rtl");
  await expect(dialog.getByLabel("Subject", { exact: true })).toHaveValue(/E-\d{5}/);
  await expectNoViolations(page, "dialog");

  await text.fill(`${await text.inputValue()}\n\n<b>P.S.</b>`);
  await dialog.getByRole("button", { name: "Preview" }).click();
  await expect(dialog.getByText("<b>P.S.</b>")).toBeVisible();
  await dialog.getByRole("button", { name: "Edit" }).click();
  await dialog.getByRole("button", { name: "Send reply" }).click();
  await expect(toasts(page).filter({ hasText: "Reply sent" })).toBeVisible();
  await expect(dialog.getByText("Sent by admin")).toBeVisible();
  await expect(text).toHaveValue("");

  // The lead answers; Mailgun posts it, signed with the key `npm start` made for this run.
  const desk = await (await page.request.get(`/api/admin/submissions/${id}/reply`)).json();
  const messageId = desk.messages[0].messageId as string;
  const key = readFileSync(path.join(process.env.E2E_DATA_DIR!, "mailgun-signing-key"), "utf8").trim();
  const timestamp = String(Math.floor(Date.now() / 1000));
  const token = randomBytes(25).toString("hex");
  const posted = await request.post("/api/inbound/mailgun-mime", {
    multipart: {
      timestamp,
      token,
      signature: createHmac("sha256", key)
        .update(timestamp + token)
        .digest("hex"),
      recipient: "hello@bridgewise.eu",
      sender: "lead@example.com",
      "body-mime": (await mime(messageId)).toString("utf8"),
    },
  });
  expect(posted.status(), await posted.text()).toBe(200);

  await dialog.getByRole("button", { name: "Close" }).click();
  await card.getByRole("button", { name: "Reply" }).click();
  await expect(dialog.getByText("Answer from the lead")).toBeVisible();
  await expect(dialog.getByText("سلام، مدارک را فرستادم.")).toBeVisible();
});
