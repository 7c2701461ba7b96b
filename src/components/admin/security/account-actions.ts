/**
 * What an account's row on the Security page offers: what the server would do, nothing it refuses.
 * The server (db/users.repository.ts) keeps at least one admin: the last admin's role cannot change
 * and the account cannot be removed (409). Every other change it allows, one's own row included:
 * an admin may become an editor, or leave, while another admin stays.
 */
import type { CurrentUser } from "#shared/api/people.ts";

export interface RowActions {
  changeRole: boolean;
  remove: boolean;
}

/** The actions on `account`'s row, given every account listed. */
export function rowActions(account: CurrentUser, accounts: readonly CurrentUser[]): RowActions {
  const lastAdmin = account.role === "admin" && accounts.filter((a) => a.role === "admin").length <= 1;
  return { changeRole: !lastAdmin, remove: !lastAdmin };
}
