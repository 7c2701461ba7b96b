import bcrypt from "bcryptjs";
import { beforeEach, describe, expect, test } from "vitest";
import {
  createInitialAdminIfNone,
  DUMMY_HASH,
  ensureAdmin,
  hashPassword,
  passwordProblem,
  verifyPassword,
} from "./admins.ts";
import { useTestDatabase } from "./testing.ts";
import { countUsers, createUser, findUserByUsername } from "./users.repository.ts";

// bcrypt at cost 12 takes a few hundred milliseconds per hash; these tests hash on purpose.
const SLOW = { timeout: 20_000 };

const database = useTestDatabase();
beforeEach(async () => {
  await database.db.deleteFrom("users").execute();
});

describe("password hashing", () => {
  test("hashes with bcrypt at cost 12 and verifies only the right password", SLOW, async () => {
    const hash = await hashPassword("correct horse battery");

    expect(bcrypt.getRounds(hash)).toBe(12);
    expect(await verifyPassword("correct horse battery", hash)).toBe(true);
    expect(await verifyPassword("wrong horse battery", hash)).toBe(false);
  });

  test("the dummy hash is a real cost-12 bcrypt hash that matches nothing guessable", SLOW, async () => {
    expect(bcrypt.getRounds(DUMMY_HASH)).toBe(12);
    expect(await verifyPassword("", DUMMY_HASH)).toBe(false);
  });

  test("a malformed hash verifies as false instead of throwing", async () => {
    expect(await verifyPassword("anything", "not a hash")).toBe(false);
  });

  test("admin passwords need 12 characters, at most 72 bytes, and none of the most common ones", () => {
    expect(passwordProblem("short")).toMatch(/at least 12/);
    expect(passwordProblem("eleven char")).toMatch(/at least 12/);
    expect(passwordProblem("twelve chars")).toBeUndefined();
    expect(passwordProblem("password1234")).toMatch(/most common/);
    expect(passwordProblem("گذرواژه".repeat(6))).toMatch(/at most 72 bytes/);
  });
});

describe("ensureAdmin", () => {
  test("creates the administrator with a hashed password", SLOW, async () => {
    const result = await ensureAdmin(database.db, "alice", "first password");

    expect(result).toEqual({ user: { id: expect.any(Number), username: "alice", role: "admin" }, action: "created" });
    const stored = await findUserByUsername(database.db, "alice");
    expect(stored?.password).not.toBe("first password");
    expect(await verifyPassword("first password", stored!.password)).toBe(true);
  });

  test("changes nothing when the password is the same", SLOW, async () => {
    await ensureAdmin(database.db, "alice", "first password");
    const before = await findUserByUsername(database.db, "alice");

    expect((await ensureAdmin(database.db, "alice", "first password")).action).toBe("unchanged");
    expect(await findUserByUsername(database.db, "alice")).toEqual(before);
  });

  test("sets a different password and revokes the sessions", SLOW, async () => {
    await ensureAdmin(database.db, "alice", "first password");

    expect((await ensureAdmin(database.db, "alice", "second password")).action).toBe("updated");

    const stored = await findUserByUsername(database.db, "alice");
    expect(stored?.sessionVersion).toBe(2);
    expect(await verifyPassword("second password", stored!.password)).toBe(true);
  });

  test("refuses a password shorter than 12 characters, or a common one", async () => {
    await expect(ensureAdmin(database.db, "alice", "eleven char")).rejects.toThrow(/at least 12/);
    await expect(ensureAdmin(database.db, "alice", "password1234")).rejects.toThrow(/most common/);
    expect(await countUsers(database.db)).toBe(0);
  });
});

describe("createInitialAdminIfNone", () => {
  test("creates admin with a random 20-character password on an empty database, once", SLOW, async () => {
    const initial = await createInitialAdminIfNone(database.db);

    expect(initial).toEqual({ username: "admin", password: expect.stringMatching(/^[A-Za-z0-9]{20}$/) });
    const stored = await findUserByUsername(database.db, "admin");
    expect(await verifyPassword(initial!.password, stored!.password)).toBe(true);
    expect(await createInitialAdminIfNone(database.db)).toBeNull();
    expect(await countUsers(database.db)).toBe(1);
  });

  test("does nothing when any user exists", async () => {
    await createUser(database.db, "alice", DUMMY_HASH);

    expect(await createInitialAdminIfNone(database.db)).toBeNull();
    expect(await findUserByUsername(database.db, "admin")).toBeUndefined();
  });
});
