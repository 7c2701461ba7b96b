import { beforeEach, describe, expect, test } from "vitest";
import { isUniqueViolation } from "./errors.ts";
import { useTestDatabase } from "./testing.ts";
import {
  bumpSessionVersion,
  countUsers,
  createUser,
  findUserById,
  findUserByUsername,
  listUsers,
  setPassword,
} from "./users.repository.ts";

const database = useTestDatabase();
beforeEach(async () => {
  await database.db.deleteFrom("users").execute();
});

// The repository stores whatever hash it is given; hashing is db/admins.ts's business.
const HASH = "$2b$12$hash-of-the-first-password";
const NEW_HASH = "$2b$12$hash-of-the-second-password";

describe("createUser", () => {
  test("creates a user and returns only its id and username", async () => {
    const user = await createUser(database.db, "alice", HASH);

    expect(user).toEqual({ id: expect.any(Number), username: "alice", role: "admin" });
  });

  test("refuses a second user with the same username", async () => {
    await createUser(database.db, "alice", HASH);

    const error = await createUser(database.db, "alice", NEW_HASH).catch((e: unknown) => e);

    expect(isUniqueViolation(error)).toBe(true);
  });
});

describe("findUserByUsername and findUserById", () => {
  test("find the credentials of a user, starting at session version 1", async () => {
    const { id } = await createUser(database.db, "alice", HASH);
    const expected = {
      id,
      username: "alice",
      role: "admin",
      password: HASH,
      sessionVersion: 1,
      panelLanguage: null,
      email: null,
    };

    expect(await findUserByUsername(database.db, "alice")).toEqual(expected);
    expect(await findUserById(database.db, id)).toEqual(expected);
  });

  test("answer undefined for an unknown user", async () => {
    await createUser(database.db, "alice", HASH);

    expect(await findUserByUsername(database.db, "bob")).toBeUndefined();
    expect(await findUserByUsername(database.db, "ALICE")).toBeUndefined();
    expect(await findUserById(database.db, 987_654)).toBeUndefined();
    expect(await findUserById(database.db, 2 ** 40)).toBeUndefined();
  });
});

describe("setPassword", () => {
  test("replaces the hash and revokes existing sessions", async () => {
    const { id } = await createUser(database.db, "alice", HASH);

    expect(await setPassword(database.db, id, NEW_HASH)).toBe(true);

    expect(await findUserById(database.db, id)).toMatchObject({ password: NEW_HASH, sessionVersion: 2 });
  });

  test("answers false for an unknown user", async () => {
    expect(await setPassword(database.db, 987_654, NEW_HASH)).toBe(false);
  });
});

describe("bumpSessionVersion", () => {
  test("increments the session version and returns it", async () => {
    const { id } = await createUser(database.db, "alice", HASH);

    expect(await bumpSessionVersion(database.db, id)).toBe(2);
    expect(await bumpSessionVersion(database.db, id)).toBe(3);
    expect((await findUserById(database.db, id))?.sessionVersion).toBe(3);
  });

  test("answers undefined for an unknown user", async () => {
    expect(await bumpSessionVersion(database.db, 987_654)).toBeUndefined();
  });
});

describe("countUsers", () => {
  test("counts the users", async () => {
    expect(await countUsers(database.db)).toBe(0);
    await createUser(database.db, "alice", HASH);
    await createUser(database.db, "bob", HASH);

    expect(await countUsers(database.db)).toBe(2);
  });
});

describe("listUsers", () => {
  test("shows each account's second factors: TOTP on or off, and how many passkeys", async () => {
    const alice = await createUser(database.db, "alice", HASH);
    const bob = await createUser(database.db, "bob", HASH, "editor");
    await createUser(database.db, "carol", HASH, "editor");
    await database.db.updateTable("users").set({ totpSecret: "sealed" }).where("id", "=", alice.id).execute();
    // A secret still being set up is not a factor yet.
    await database.db.updateTable("users").set({ totpPendingSecret: "sealed" }).where("id", "=", bob.id).execute();
    await database.db
      .insertInto("passkeys")
      .values(
        ["one", "two"].map((name) => ({
          userId: bob.id,
          credentialId: `credential-${name}`,
          publicKey: new Uint8Array([1, 2, 3]),
          counter: 0,
          name,
        })),
      )
      .execute();

    const listed = await listUsers(database.db);

    expect(listed.map(({ username, totp, passkeys }) => ({ username, totp, passkeys }))).toEqual([
      { username: "alice", totp: true, passkeys: 0 },
      { username: "bob", totp: false, passkeys: 2 },
      { username: "carol", totp: false, passkeys: 0 },
    ]);
  });
});
