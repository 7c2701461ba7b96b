/**
 * Invitations (functions/invitation.ts gives them meaning): an account created with a password
 * nobody knows, and a single-use link whose token only the invitee's email (or the inviting admin,
 * once) ever sees; the table keeps the token's SHA-256. Accepting sets the invitee's own password
 * and spends the link in one transaction, so two uses at once cannot both pass.
 */
import { type Kysely } from "kysely";
import { isUniqueViolation } from "./errors.ts";
import type { Database } from "./types.ts";
import type { Role } from "#shared/roles.ts";
import type { User } from "./users.repository.ts";

/** Creates the invited account (null when the name is taken) and its invitation, in one transaction. */
export async function createInvitation(
  db: Kysely<Database>,
  account: { username: string; role: Role; email: string | null; language: string; unusableHash: string },
  link: { tokenHash: string; expiresAt: Date },
): Promise<User | null> {
  try {
    return await db.transaction().execute(async (trx) => {
      const user = await trx
        .insertInto("users")
        .values({
          username: account.username,
          password: account.unusableHash,
          role: account.role,
          email: account.email,
          panelLanguage: account.language,
        })
        .returning(["id", "username", "role"])
        .executeTakeFirstOrThrow();
      await trx
        .insertInto("invitations")
        .values({ userId: user.id, tokenHash: link.tokenHash, language: account.language, expiresAt: link.expiresAt })
        .execute();
      return user;
    });
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

/** An invitation as its page needs it, found by its token's hash. */
export interface InvitationRow {
  id: number;
  userId: number;
  username: string;
  language: string;
  expiresAt: Date;
  usedAt: Date | null;
}

export async function findInvitation(db: Kysely<Database>, tokenHash: string): Promise<InvitationRow | undefined> {
  return db
    .selectFrom("invitations as i")
    .innerJoin("users as u", "u.id", "i.userId")
    .select(["i.id", "i.userId", "u.username", "i.language", "i.expiresAt", "i.usedAt"])
    .where("i.tokenHash", "=", tokenHash)
    .executeTakeFirst();
}

/**
 * Spends a live invitation and sets its account's password (revoking any session, of which there
 * should be none): the invitation as it was, or why not ("unknown", "used", "expired" at `now`).
 */
export async function acceptInvitation(
  db: Kysely<Database>,
  tokenHash: string,
  passwordHash: string,
  now: Date,
): Promise<InvitationRow | "unknown" | "used" | "expired"> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("invitations as i")
      .innerJoin("users as u", "u.id", "i.userId")
      .select(["i.id", "i.userId", "u.username", "i.language", "i.expiresAt", "i.usedAt"])
      .where("i.tokenHash", "=", tokenHash)
      .forUpdate()
      .executeTakeFirst();
    if (!row) return "unknown";
    if (row.usedAt) return "used";
    if (row.expiresAt.getTime() <= now.getTime()) return "expired";
    await trx.updateTable("invitations").set({ usedAt: now }).where("id", "=", row.id).execute();
    await trx
      .updateTable("users")
      .set((eb) => ({ password: passwordHash, sessionVersion: eb("sessionVersion", "+", 1) }))
      .where("id", "=", row.userId)
      .execute();
    return row;
  });
}
