/** The Security page's and the audit record's calls (sessions, password, accounts, audit). */
import type { MessageAnswer } from "#shared/api/common.ts";
import type { AccountInfo, AuditAnswer, SessionsAnswer, UserAnswer } from "#shared/api/security.ts";
import type { Role } from "#shared/roles.ts";
import { fill, ROUTES, withQuery } from "#shared/routes.ts";
import type { AuditQuery } from "#shared/schemas/security.ts";
import { adminRequest } from "../api";

export const SECURITY_PATH = "/admin/security";
export const AUDIT_PATH = "/admin/audit";

export const mySessions = () =>
  adminRequest<SessionsAnswer>("GET", ROUTES.account.sessions).then((answer) => answer.sessions);
export const endMySession = (id: string) => adminRequest<MessageAnswer>("DELETE", fill(ROUTES.account.session, { id }));

/** Sets a new password; the server ends the person's other sessions. */
export const changePassword = (currentPassword: string, newPassword: string) =>
  adminRequest<MessageAnswer>("POST", ROUTES.account.password, { currentPassword, newPassword });

export const listAccounts = () => adminRequest<AccountInfo[]>("GET", ROUTES.admin.users);
export const changeAccountRole = (id: number, role: Role) =>
  adminRequest<UserAnswer>("PATCH", fill(ROUTES.admin.account, { id }), { role });
export const removeAccount = (id: number) => adminRequest<MessageAnswer>("DELETE", fill(ROUTES.admin.account, { id }));

/** Every account's live sessions (admin only). */
export const allSessions = () =>
  adminRequest<SessionsAnswer>("GET", ROUTES.admin.sessions).then((answer) => answer.sessions);
export const endAnySession = (id: string) => adminRequest<MessageAnswer>("DELETE", fill(ROUTES.admin.session, { id }));

/** The audit filters without empty fields, as the API's query string takes them. */
const auditParams = (query: AuditQuery) =>
  Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined && value !== "")) as Record<
    string,
    string
  >;

/** A page of the audit record, newest first (`before`: the previous page's `next`). */
export const auditPage = (query: AuditQuery) =>
  adminRequest<AuditAnswer>("GET", withQuery(ROUTES.admin.audit, auditParams(query)));
/** Where the CSV of the filtered record downloads from. */
export const auditCsvUrl = (query: AuditQuery) =>
  withQuery(ROUTES.admin.auditCsv, auditParams({ ...query, before: undefined }));
