import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./test";
import { ADMIN, uniqueTag } from "./helpers";
import type { AdminConsultant } from "../src/shared/api/consultants";

/**
 * The consultants specs run in the `consultants` project, against a server of their own
 * (playwright.config.ts): a fresh install has one consultant, the first admin (Nasrin Farahani), and
 * these specs link more. On the other specs' server a second consultant would free every slot they
 * book for a second visitor.
 */

/**
 * Makes each team member in `ids` a consultant who takes meetings, linking a new account to the ones
 * not linked yet. Idempotent, and safe when two workers run it at once (the loser's link answers 409,
 * and the member is then linked).
 */
export async function ensureConsultants(request: APIRequestContext, origin: string, ids: readonly string[]) {
  const signIn = await request.post("/api/login", { data: ADMIN });
  expect(signIn.status(), await signIn.text()).toBe(200);
  const listed = async () => (await (await request.get("/api/admin/consultants")).json()) as AdminConsultant[];
  const already = (await listed()).map((c) => c.id);
  const toLink = ids.filter((id) => !already.includes(id));
  if (toLink.length) {
    const stepUp = await request.post("/api/account/step-up", {
      data: { password: ADMIN.password },
      headers: { origin },
    });
    expect(stepUp.status(), await stepUp.text()).toBe(200);
  }
  for (const id of toLink) {
    const invited = await request.post("/api/admin/users", {
      data: { username: `${id.split("-")[0]}-${uniqueTag()}`, role: "editor" },
      headers: { origin },
    });
    expect(invited.status(), await invited.text()).toBe(201);
    const { user } = (await invited.json()) as { user: { id: number } };
    const linked = await request.post("/api/admin/consultants", {
      data: { consultant: id, userId: user.id },
      headers: { origin },
    });
    expect([201, 409], await linked.text()).toContain(linked.status());
  }
  for (const consultant of await listed())
    if (ids.includes(consultant.id) && !consultant.active) {
      const set = await request.patch(`/api/admin/consultants/${consultant.id}`, {
        data: { active: true },
        headers: { origin },
      });
      expect(set.status(), await set.text()).toBe(200);
    }
  expect(
    (await listed())
      .filter((c) => ids.includes(c.id) && c.active)
      .map((c) => c.id)
      .sort(),
  ).toEqual([...ids].sort());
}

/** Registers, for the spec that calls it, a first step that makes `ids` consultants (once per worker). */
export function withConsultants(ids: readonly string[]) {
  let done = false;
  test.beforeEach(async ({ playwright, baseURL }) => {
    if (done) return;
    const api = await playwright.request.newContext({ baseURL });
    try {
      await ensureConsultants(api, baseURL!, ids);
    } finally {
      await api.dispose();
    }
    done = true;
  });
}
