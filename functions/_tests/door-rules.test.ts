/**
 * What the door keeps, and how: recovery codes only as keyed hashes (and rows from before keyed at
 * first use or by the daily run), failed sign-ins without usernames or addresses in clear,
 * usernames unique whatever their case, and an erasure that leaves a staff account's trail
 * attributable. Real handlers on a real PostgreSQL.
 */
import { createHash } from "node:crypto";
import { sql } from "kysely";
import { Secret } from "otpauth";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DUMMY_HASH } from "#db/admins.ts";
import { isUniqueViolation } from "#db/errors.ts";
import { seal } from "#db/seal.ts";
import { createUser, findUserByUsername } from "#db/users.repository.ts";
import { factorSealKey } from "#server/config.ts";
import { SESSION_COOKIE, signSession } from "../_lib/auth/auth.ts";
import { newRecoveryCodes, useFactorCode } from "../_lib/auth/factors.ts";
import { runRetention } from "../_lib/privacy/retention.ts";
import adminAudit from "../admin-audit.ts";
import adminPrivacy from "../admin-privacy.ts";
import login from "../login.ts";
import { call, ORIGIN, setupApiDatabase } from "./harness.ts";
import { fixtureAdmin } from "./fixture-users.ts";

let t: Awaited<ReturnType<typeof setupApiDatabase>>;
let admin = "";
const PASSWORD = "correct horse battery staple";
const same = { origin: ORIGIN };

beforeAll(async () => {
  t = await setupApiDatabase();
  const { user } = await fixtureAdmin(t.db, "owner", PASSWORD);
  admin = `${SESSION_COOKIE}=${await signSession({ id: user.id, sessionVersion: 1 })}`;
}, 60_000);
afterAll(async () => {
  await t?.destroy();
});

const sha256 = (code: string) => createHash("sha256").update(code.replace("-", "")).digest("hex");
const storedHashes = async (userId: number) =>
  (
    await sql<{ h: string }>`SELECT code_hash AS h FROM recovery_codes WHERE user_id = ${userId} ORDER BY id`.execute(
      t.db,
    )
  ).rows.map((r) => r.h);

/** An account with TOTP on (so recovery codes count) and these stored recovery-code hashes. */
async function withCodes(username: string, hashes: string[]) {
  const user = await createUser(t.db, username, DUMMY_HASH);
  const sealed = seal(new Secret({ size: 20 }).base32, factorSealKey());
  await sql`UPDATE users SET totp_secret = ${sealed} WHERE id = ${user.id}`.execute(t.db);
  await t.db
    .insertInto("recoveryCodes")
    .values(hashes.map((codeHash) => ({ userId: user.id, codeHash })))
    .execute();
  return user.id;
}

describe("recovery codes at rest", () => {
  test("are stored as a keyed hash: the bare SHA-256 of a 50-bit code is not in the table", async () => {
    const { codes, hashes } = newRecoveryCodes();
    const id = await withCodes("keyed", hashes);
    const stored = await storedHashes(id);
    for (const [i, code] of codes.entries()) {
      expect(stored[i]).toMatch(/^h1:[0-9a-f]{64}$/);
      expect(stored[i]).not.toContain(sha256(code));
    }
    expect(await useFactorCode(t.db, id, { recoveryCode: codes[0].toUpperCase() })).toBe("recovery");
    expect(await useFactorCode(t.db, id, { recoveryCode: codes[0] })).toBeNull();
  });

  test("codes stored before the key still work once, and are keyed at the first check of any code", async () => {
    const old = ["abcde-fghij", "klmno-pqrst", "uvwxy-z2345"];
    const id = await withCodes("legacy", old.map(sha256));
    const other = await withCodes("legacy-other", [sha256("aaaaa-bbbbb")]);
    expect(await useFactorCode(t.db, id, { recoveryCode: "ABCDE FGHIJ" })).toBe("recovery");
    expect(await useFactorCode(t.db, id, { recoveryCode: "abcde-fghij" })).toBeNull();
    for (const h of [...(await storedHashes(id)), ...(await storedHashes(other))]) expect(h).toMatch(/^h1:/);
    expect(await useFactorCode(t.db, id, { recoveryCode: "klmno-pqrst" })).toBe("recovery");
    expect(await useFactorCode(t.db, other, { recoveryCode: "aaaaa-bbbbb" })).toBe("recovery");
  });

  test("the daily retention run keys any bare row left", async () => {
    const id = await withCodes("legacy-daily", [sha256("ccccc-ddddd")]);
    const { result } = await runRetention(t.db);
    expect(result.recoveryCodesKeyed).toBe(1);
    expect(await storedHashes(id)).toEqual([expect.stringMatching(/^h1:/)]);
    expect(await useFactorCode(t.db, id, { recoveryCode: "ccccc-ddddd" })).toBe("recovery");
  });
});

describe("failed sign-ins are kept without the typed username or the address in clear", () => {
  test("a wrong password leaves two keyed rows; the export and the erasure of a typed address still find them", async () => {
    const typed = "Typed.Visitor@example.com";
    await sql`DELETE FROM login_attempts`.execute(t.db);
    const res = await call(login, "/api/login", {
      body: { username: typed, password: "not the password" },
      ip: "198.51.100.200",
    });
    expect(res.status).toBe(401);
    const keys = (await sql<{ key: string }>`SELECT key FROM login_attempts`.execute(t.db)).rows.map((r) => r.key);
    expect(keys).toHaveLength(2);
    expect(keys.join(" ")).not.toMatch(/typed|visitor|example|198\.51/i);
    const exported = await call(adminPrivacy, "/api/admin/privacy/export", {
      body: { email: typed.toLowerCase() },
      cookie: admin,
      headers: same,
    });
    expect(exported.json.loginAttempts).toHaveLength(1);
    const erased = await call(adminPrivacy, "/api/admin/privacy/erase", {
      body: { email: typed },
      cookie: admin,
      headers: same,
    });
    expect(erased.json.erased.loginAttempts).toBe(1);
  });
});

describe("usernames are unique whatever their case", () => {
  test('"DOOR-x" cannot be created beside "door-x"; sign-in ignores case; the audit filter finds one account', async () => {
    await fixtureAdmin(t.db, "door-x", PASSWORD);
    const error = await createUser(t.db, "DOOR-x", DUMMY_HASH).catch((e: unknown) => e);
    expect(isUniqueViolation(error)).toBe(true);
    expect((await findUserByUsername(t.db, "DOOR-X"))?.username).toBe("door-x");
    const signedIn = await call(login, "/api/login", {
      body: { username: "Door-X", password: PASSWORD },
      ip: "203.0.113.201",
    });
    expect(signedIn.status).toBe(200);
    const entries = await call(adminAudit, "/api/admin/audit?actor=DOOR-x&action=signin.success", { cookie: admin });
    expect(entries.json.entries.map((e: { actor: string }) => e.actor)).toEqual(["door-x"]);
  });
});

describe("an erasure scrubs visitors' data, not a staff account's trail", () => {
  test("erasing an address that is also a staff username keeps that account as the actor of its entries", async () => {
    const address = "staff.person@example.com";
    await fixtureAdmin(t.db, address, PASSWORD);
    const signedIn = await call(login, "/api/login", {
      body: { username: address, password: PASSWORD },
      ip: "203.0.113.202",
    });
    expect(signedIn.status).toBe(200);
    await call(login, "/api/login", { body: { username: address, password: "a wrong password" }, ip: "203.0.113.203" });
    const erased = await call(adminPrivacy, "/api/admin/privacy/erase", {
      body: { email: "Staff.Person@example.com" },
      cookie: admin,
      headers: same,
    });
    expect(erased.status).toBe(200);
    expect(erased.json.erased.loginAttempts).toBe(0);
    const actors = (
      await sql<{
        actor: string;
      }>`SELECT actor FROM audit_log WHERE action = 'signin.success' AND lower(actor) = ${address}`.execute(t.db)
    ).rows;
    expect(actors).toEqual([{ actor: address }]);
    const failures = await sql<{ n: number }>`SELECT count(*)::int AS n FROM login_attempts`.execute(t.db);
    expect(failures.rows[0].n).toBeGreaterThanOrEqual(2);
  });
});
