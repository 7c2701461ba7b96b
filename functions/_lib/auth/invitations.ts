/**
 * Invitation links: 32 random bytes (base64url) in the URL's fragment, so the token never reaches a
 * server log or a Referer; the database keeps only its SHA-256 (a 256-bit random token needs no
 * slow hash). A link works once, for INVITATION_HOURS.
 */
import { createHash, randomBytes } from "node:crypto";
import { site } from "#config/site.ts";
import type { Language } from "#shared/languages.ts";

export const INVITATION_HOURS = 72;

/** The page an invitation link opens. */
export const INVITATION_PAGE = "/admin/invitation";

export const newInvitationToken = (): string => randomBytes(32).toString("base64url");

export const invitationTokenHash = (token: string): string => createHash("sha256").update(token).digest("hex");

/** The link the invitee opens: the page in their language, the token in the fragment. */
export const invitationUrl = (lang: Language, token: string): string =>
  `${site.url}${INVITATION_PAGE}?lang=${lang}#${token}`;
