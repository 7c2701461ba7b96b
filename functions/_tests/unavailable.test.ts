import { afterEach, describe, expect, test } from "vitest";
import { call } from "./harness.ts";
import contact from "../contact.ts";
import meetings from "../meetings.ts";
import user from "../user.ts";
import { closeDb } from "#db/client.ts";

const enquiry = {
  firstName: "Sara",
  lastName: "Rahimi",
  email: "sara@example.com",
  service: "other",
  message: "Please call me back tomorrow.",
};

afterEach(async () => {
  await closeDb();
});

describe("when the database cannot be reached", () => {
  test.each([
    ["refuses connections", "postgres://postgres@127.0.0.1:1/nowhere"],
    ["is not configured", ""],
  ])("and it %s, calls answer 503 with a clear message and no internals", async (_, url) => {
    process.env.DATABASE_URL = url;
    process.env.JWT_SECRET = "test-secret-that-is-long-enough-for-hs256-0123456789";
    for (const res of [
      await call(contact, "/api/contact", { body: enquiry }),
      await call(meetings, "/api/meetings/available-slots?date=2030-01-07"),
      await call(user, "/api/user", { cookie: "bridgewise_session=x.y.z" }),
    ]) {
      if (res.status === 401) continue; // /api/user with a malformed token never needs the database
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("30");
      expect(res.json).toEqual({
        success: false,
        message: "The service is temporarily unavailable. Please try again in a few minutes.",
      });
      expect(res.text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|DATABASE_URL|at /);
    }
  });
  test("validation still answers first: bad input is 400 without touching the database", async () => {
    process.env.DATABASE_URL = "postgres://postgres@127.0.0.1:1/nowhere";
    const res = await call(contact, "/api/contact", { body: { ...enquiry, email: "nope" } });
    expect(res.status).toBe(400);
  });
});

describe("without JWT_SECRET", () => {
  test("login cannot sign sessions and says the service is misconfigured, not why", async () => {
    const { default: login } = await import("../login.ts");
    delete process.env.JWT_SECRET;
    process.env.DATABASE_URL = "postgres://postgres@127.0.0.1:1/nowhere";
    const res = await call(login, "/api/login", { body: { username: "admin", password: "whatever-password" } });
    expect([500, 503]).toContain(res.status);
    expect(res.text).not.toContain("JWT_SECRET");
  });
});
