/**
 * The end of every sign-in (a password alone, a password and a code, a passkey): the session, its
 * one audit entry naming the factors used, and a notice to the owner when the device, or the
 * network, is new to the account. And the notices of a factor added or removed. Notices go to the account's email in its
 * panel language through the outbox; an account without an email gets none.
 */
import type { Context } from "@netlify/functions";
import type { Kysely } from "kysely";
import { knownSignIn } from "#db/sessions.repository.ts";
import { enqueue } from "#db/outbox.repository.ts";
import { findUserById } from "#db/users.repository.ts";
import type { Database } from "#db/types.ts";
import { site } from "#config/site.ts";
import { isLanguage } from "#shared/languages.ts";
import { afterCommitDelivery } from "../mail/delivery.ts";
import { securityNoticeEmail, type SecurityNotice } from "../mail/templates.ts";
import { newSessionId, sessionCookie, signSession } from "./auth.ts";
import { audit } from "./audit.ts";
import { sessionMeta } from "./session-meta.ts";

/** How a sign-in proved who it was. */
export type SignInFactor = "password" | "password+totp" | "password+recovery" | "passkey";

export interface SigningIn {
  id: number;
  username: string;
  sessionVersion: number;
  email: string | null;
  panelLanguage: string | null;
}

/**
 * Opens a session for `user` (limited: it may only set up a second factor), records the sign-in and
 * tells the owner of a new device; returns the Set-Cookie value.
 */
export async function openSession(
  db: Kysely<Database>,
  req: Request,
  context: Partial<Context>,
  user: SigningIn,
  factor: SignInFactor,
  { limited = false }: { limited?: boolean } = {},
): Promise<string> {
  const meta = sessionMeta(req, context);
  const sid = newSessionId();
  const token = await signSession(user, meta, db, { limited, sid });
  await audit(db, req, context, user, "signin.success", { detail: { factor, ...(limited ? { limited } : {}) } });
  if (user.email) {
    // A new device, or a known one from a network the account never signed in from (the
    // User-Agent is the client's to choose, the network is not).
    const known = await knownSignIn(db, user.id, meta, sid);
    const device = [meta.browser, meta.device].filter(Boolean).join(", ");
    const notice = !known.device ? "newDevice" : !known.network ? "newNetwork" : null;
    if (notice)
      await notify(db, context, user, notice, { device: device || undefined, place: meta.place || undefined });
  }
  return sessionCookie(token, req);
}

/** Whom a notice about the signed-in person goes to: their email and panel language. */
export async function noticeOwner(
  db: Kysely<Database>,
  me: { id: number; username: string },
): Promise<Pick<SigningIn, "username" | "email" | "panelLanguage">> {
  const user = await findUserById(db, me.id);
  return { username: me.username, email: user?.email ?? null, panelLanguage: user?.panelLanguage ?? null };
}

/** Queues (and starts sending) a notice to the account's owner; nothing without an email. */
export async function notify(
  db: Kysely<Database>,
  context: Partial<Context> | undefined,
  user: Pick<SigningIn, "username" | "email" | "panelLanguage">,
  notice: SecurityNotice,
  details: { factor?: "totp" | "passkey"; role?: "admin" | "editor"; device?: string; place?: string } = {},
): Promise<void> {
  if (!user.email) return;
  const lang = isLanguage(user.panelLanguage) ? user.panelLanguage : "en";
  const ids = await enqueue(db, [
    {
      kind: `security.${notice}`,
      to: user.email,
      replyTo: site.email,
      ...securityNoticeEmail(lang, notice, { username: user.username, ...details, at: new Date() }),
    },
  ]);
  await afterCommitDelivery(db, ids, context);
}
