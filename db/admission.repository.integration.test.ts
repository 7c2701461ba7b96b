import { beforeEach, describe, expect, test } from "vitest";
import { admit, type AdmissionRequest } from "./admission.repository.ts";
import { newEnquiry, storeEnquiry } from "./enquiries.repository.ts";
import { useTestDatabase } from "./testing.ts";

const database = useTestDatabase();
beforeEach(async () => {
  await database.db.deleteFrom("rateCounters").execute();
});

const HOUR = 3600;
/** 2026-11-23 10:30:00 UTC, half way through an hour window. */
const NOW = Date.parse("2026-11-23T10:30:00Z");
const token = (nonce: string) => ({
  key: `form-token:${nonce}`,
  at: new Date(NOW - 5000),
  expiresAt: new Date(NOW + 2 * HOUR * 1000),
});
const request = (nonce: string, refuseAbove = 3, softAbove = 2): AdmissionRequest => ({
  once: token(nonce),
  gate: { key: "address", windowSeconds: HOUR, refuseAbove, softAbove },
  following: [
    { key: "recipient", windowSeconds: 24 * HOUR, onlyUnderSoft: true },
    { key: "breaker", windowSeconds: HOUR },
  ],
  reserveIdOf: "enquiries",
});
const hits = async () =>
  Object.fromEntries(
    (
      await database.db
        .selectFrom("rateCounters")
        .select(["key", "hits"])
        .where("key", "not like", "form-token:%")
        .execute()
    ).map((r) => [r.key, r.hits]),
  );

describe("admit", () => {
  test("a form token is used once only, even in parallel; a used one counts nothing and reserves no id", async () => {
    const results = await Promise.all(Array.from({ length: 10 }, () => admit(database.db, request("n1"), NOW)));
    expect(results.filter((r) => !r.tokenUsed)).toHaveLength(1);
    expect(await hits()).toEqual({ address: 1, recipient: 1, breaker: 1 });
  });

  test("under the soft limit every counter counts; over it the onlyUnderSoft ones are read, not counted; past the gate's limit it is refused and nothing else counts", async () => {
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await admit(database.db, request(`n${i}`), NOW));
    const admitted = answers.map((a) =>
      a.tokenUsed ? "used" : a.refusedBy ? "refused" : a.underSoft ? "soft" : "over soft",
    );
    expect(admitted).toEqual(["soft", "soft", "over soft", "refused", "refused"]);
    // Two under the soft limit count the recipient; three admitted count the breaker; refusals count only the gate.
    expect(await hits()).toEqual({ address: 5, recipient: 2, breaker: 3 });
    const refused = answers[3];
    expect(!refused.tokenUsed && refused.refusedBy).toMatchObject({ key: "address", current: 4, resetSeconds: 1800 });
    expect(!refused.tokenUsed && refused.id).toBeNull();
    const ids = answers.slice(0, 3).map((a) => (a.tokenUsed ? null : a.id));
    expect(ids.every((id) => typeof id === "number")).toBe(true);
    expect(new Set(ids).size).toBe(3);
  });

  test("without a token or a gate it only reserves the id, at the database's time", async () => {
    const before = Date.now();
    const answer = await admit(database.db, { reserveIdOf: "enquiries" });
    expect(answer).toMatchObject({ tokenUsed: false, refusedBy: null, underSoft: true, states: new Map() });
    expect(!answer.tokenUsed && answer.id).toBeGreaterThan(0);
    expect(!answer.tokenUsed && answer.at.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });
});

describe("storeEnquiry", () => {
  test("stores the enquiry under its reserved id with its emails in one statement, atomically", async () => {
    const answer = await admit(database.db, { reserveIdOf: "enquiries" });
    if (answer.tokenUsed) throw new Error("no token was given");
    const enquiry = newEnquiry(
      { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", service: "startup-visa", message: "Hello" },
      { id: answer.id!, at: answer.at },
    );
    const email = {
      kind: "enquiry.company",
      enquiryId: enquiry.id,
      to: "hello@example.com",
      subject: "s",
      text: "t",
      html: "h",
    };
    const ids = await storeEnquiry(database.db, enquiry, [email, { ...email, kind: "enquiry.visitor" }]);
    expect(ids).toHaveLength(2);
    const stored = await database.db
      .selectFrom("enquiries")
      .selectAll()
      .where("id", "=", enquiry.id)
      .executeTakeFirstOrThrow();
    expect({ ...stored, createdAt: stored.createdAt.toISOString() }).toMatchObject({
      ...enquiry,
      company: null,
      language: "en",
      emailStatus: "pending",
    });

    // A failing email row (here: an unknown record) stores no enquiry either.
    const next = await admit(database.db, { reserveIdOf: "enquiries" });
    if (next.tokenUsed) throw new Error("no token was given");
    const lost = newEnquiry({ ...enquiry, lastName: "Lost" }, { id: next.id!, at: next.at });
    await expect(
      storeEnquiry(database.db, lost, [{ ...email, enquiryId: lost.id, meetingId: 999_999 }]),
    ).rejects.toThrow();
    expect(await database.db.selectFrom("enquiries").where("id", "=", lost.id).select("id").execute()).toEqual([]);
  });
});
