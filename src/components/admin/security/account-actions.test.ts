import { describe, expect, test } from "vitest";
import type { CurrentUser } from "#shared/api/people.ts";
import { rowActions } from "./account-actions";

const owner: CurrentUser = { id: 1, username: "owner", role: "admin" };
const sanaz: CurrentUser = { id: 2, username: "sanaz", role: "editor" };
const partner: CurrentUser = { id: 3, username: "partner", role: "admin" };
const NONE = { changeRole: false, remove: false };
const BOTH = { changeRole: true, remove: true };

describe("rowActions", () => {
  test("the only admin's row (the walk-through's owner, beside the editor sanaz) offers no role change and no removal", () => {
    const accounts = [owner, sanaz];
    expect(rowActions(owner, accounts)).toEqual(NONE);
    expect(rowActions(sanaz, accounts)).toEqual(BOTH);
  });

  test("with a second admin, each admin's row (one's own too) offers both, as the server allows them", () => {
    const accounts = [owner, sanaz, partner];
    for (const account of accounts) expect(rowActions(account, accounts), account.username).toEqual(BOTH);
  });

  test("an editor's row offers both even when no admin is listed", () => {
    expect(rowActions(sanaz, [sanaz])).toEqual(BOTH);
  });
});
