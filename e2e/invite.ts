import { expect, test, type APIRequestContext } from "@playwright/test";

/**
 * A new account, as an admin makes one: a step-up with the admin's password, the invitation (no
 * SMTP in the browser tests, so the answer holds the link), then the invitee's own password set
 * through the link. `request` must be signed in as that admin. Answers the new password.
 */
export async function inviteAccount(
  request: APIRequestContext,
  adminPassword: string,
  invitee: { username: string; role: "admin" | "editor"; email?: string; language?: "en" | "nl" | "fa" },
  origin = test.info().project.use.baseURL!,
): Promise<string> {
  // The panel's own origin, as a page of it sends (the API refuses other sites' posts).
  const headers = { origin };
  const stepUp = await request.post("/api/account/step-up", { data: { password: adminPassword }, headers });
  expect(stepUp.status(), await stepUp.text()).toBe(200);
  const res = await request.post("/api/admin/users", { data: invitee, headers });
  expect(res.status(), await res.text()).toBe(201);
  const { link } = (await res.json()) as { link: string };
  const password = `${invitee.username} chose this password`;
  const accepted = await request.post("/api/invitation/accept", {
    data: { token: new URL(link).hash.slice(1), password },
    headers,
  });
  expect(accepted.status(), await accepted.text()).toBe(200);
  return password;
}
