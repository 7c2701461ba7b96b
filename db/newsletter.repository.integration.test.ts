import { sql } from "kysely";
import { beforeEach, describe, expect, test } from "vitest";
import { confirmSubscription, signUp, subscriberCounts, unsubscribe } from "./newsletter.repository.ts";
import { useTestDatabase } from "./testing.ts";

const database = useTestDatabase();
beforeEach(async () => {
  await database.db.deleteFrom("newsletterSubscribers").execute();
});

const subscribers = () =>
  database.db
    .selectFrom("newsletterSubscribers")
    .select(["email", "language", "isActive", "consentPage"])
    .orderBy("id")
    .execute();
const ada = (page: string | null = "/en/") => ({ email: "ada@example.com", language: "nl", page });

describe("signUp (double opt-in)", () => {
  test("stores a pending sign-up with its consent (language, page) and asks for a confirmation", async () => {
    const { confirm } = await signUp(database.db, ada("/nl/startup-visa"));

    expect(confirm).toMatchObject({ email: "ada@example.com", language: "nl" });
    expect(await subscribers()).toEqual([
      { email: "ada@example.com", language: "nl", isActive: false, consentPage: "/nl/startup-visa" },
    ]);
  });

  test("one row whatever the case; a second sign-up within the hour sends no second email", async () => {
    await signUp(database.db, { ...ada(), email: "Ada@Example.com" });

    expect((await signUp(database.db, { ...ada(), email: "ada@EXAMPLE.COM", language: "fa" })).confirm).toBeNull();
    expect(await subscribers()).toEqual([
      { email: "ada@EXAMPLE.COM", language: "fa", isActive: false, consentPage: "/en/" },
    ]);
    await database.db
      .updateTable("newsletterSubscribers")
      .set({ confirmationSentAt: sql<Date>`now() - interval '61 minutes'` })
      .execute();
    expect((await signUp(database.db, ada())).confirm).not.toBeNull();
  });

  test("an active subscriber is left as it is and gets no email", async () => {
    const { confirm } = await signUp(database.db, ada());
    await confirmSubscription(database.db, confirm!.id);

    expect((await signUp(database.db, { ...ada(), language: "fa" })).confirm).toBeNull();
    expect(await subscribers()).toEqual([
      { email: "ada@example.com", language: "nl", isActive: true, consentPage: "/en/" },
    ]);
  });

  test("never fails for concurrent sign-ups of one address", async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        signUp(database.db, { ...ada(), email: i % 2 ? "ada@example.com" : "ADA@example.com" }),
      ),
    );
    expect(results.filter((r) => r.confirm)).toHaveLength(1);
    expect(await subscribers()).toHaveLength(1);
  });
});

describe("confirmSubscription and unsubscribe", () => {
  test("only confirmed addresses count; an unsubscribed one is not confirmed by an old link", async () => {
    const { confirm } = await signUp(database.db, ada());
    expect(await subscriberCounts(database.db)).toEqual({ confirmed: 0, pending: 1 });

    expect(await confirmSubscription(database.db, confirm!.id)).toMatchObject({ outcome: "confirmed" });
    expect(await confirmSubscription(database.db, confirm!.id)).toMatchObject({ outcome: "already" });
    expect(await subscriberCounts(database.db)).toEqual({ confirmed: 1, pending: 0 });

    expect(await unsubscribe(database.db, confirm!.id)).toEqual({ language: "nl" });
    expect(await subscriberCounts(database.db)).toEqual({ confirmed: 0, pending: 0 });
    expect(await confirmSubscription(database.db, confirm!.id)).toBeNull();
  });

  test("signing up again after unsubscribing starts a new pending sign-up, with an email", async () => {
    const { confirm } = await signUp(database.db, ada());
    await confirmSubscription(database.db, confirm!.id);
    await unsubscribe(database.db, confirm!.id);

    expect((await signUp(database.db, ada())).confirm).not.toBeNull();
    expect(await subscriberCounts(database.db)).toEqual({ confirmed: 0, pending: 1 });
  });
});
