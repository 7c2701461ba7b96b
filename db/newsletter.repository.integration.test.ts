import { beforeEach, describe, expect, test } from "vitest";
import { subscribe } from "./newsletter.repository.ts";
import { useTestDatabase } from "./testing.ts";

const database = useTestDatabase();
beforeEach(async () => {
  await database.db.deleteFrom("newsletterSubscribers").execute();
});

const subscribers = () =>
  database.db.selectFrom("newsletterSubscribers").select(["email", "language", "isActive"]).execute();

describe("subscribe", () => {
  test("adds an active subscriber with their language", async () => {
    expect(await subscribe(database.db, "ada@example.com", "nl")).toEqual({ created: true });

    expect(await subscribers()).toEqual([{ email: "ada@example.com", language: "nl", isActive: true }]);
  });

  test("answers created false for the same address in another case, keeping one row", async () => {
    await subscribe(database.db, "Ada@Example.com", "en");

    expect(await subscribe(database.db, "ada@EXAMPLE.COM", "en")).toEqual({ created: false });
    expect(await subscribers()).toEqual([{ email: "Ada@Example.com", language: "en", isActive: true }]);
  });

  test("re-activates a subscriber who had left, with the newer language", async () => {
    await subscribe(database.db, "ada@example.com", "en");
    await database.db.updateTable("newsletterSubscribers").set({ isActive: false }).execute();

    expect(await subscribe(database.db, "ADA@example.com", "fa")).toEqual({ created: false });
    expect(await subscribers()).toEqual([{ email: "ada@example.com", language: "fa", isActive: true }]);
  });

  test("never fails for concurrent subscriptions of one address", async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => subscribe(database.db, i % 2 ? "ada@example.com" : "ADA@example.com", "en")),
    );

    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(await subscribers()).toHaveLength(1);
  });

  test("the database defaults the language to en", async () => {
    await database.db.insertInto("newsletterSubscribers").values({ email: "bob@example.com" }).execute();

    expect(await subscribers()).toEqual([{ email: "bob@example.com", language: "en", isActive: true }]);
  });
});
