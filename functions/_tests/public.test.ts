import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { call, formBody, setupApiDatabase } from "./harness.ts";
import detectLanguage from "../detect-language.ts";
import contact from "../contact.ts";
import newsletter from "../newsletter.ts";
import { listEnquiries } from "#db/enquiries.repository.ts";

let test_: Awaited<ReturnType<typeof setupApiDatabase>>;
beforeAll(async () => {
  test_ = await setupApiDatabase();
}, 60_000);
afterAll(async () => {
  await test_?.destroy();
});

const valid = {
  firstName: "Sara",
  lastName: "Rahimi",
  email: "sara@example.com",
  company: "Arvan",
  service: "startup-visa",
  message: "We want to open an office in Amsterdam.",
};

describe("GET /api/detect-language", () => {
  test("Iran → fa, the Netherlands and Belgium → nl, whatever the browser says", async () => {
    expect(
      (await call(detectLanguage, "/api/detect-language", { country: "IR", headers: { "accept-language": "en-US" } }))
        .json,
    ).toEqual({ language: "fa" });
    expect((await call(detectLanguage, "/api/detect-language", { country: "NL" })).json.language).toBe("nl");
    expect((await call(detectLanguage, "/api/detect-language", { country: "BE" })).json.language).toBe("nl");
  });
  test("elsewhere, the best Accept-Language match by q-value", async () => {
    expect(
      (
        await call(detectLanguage, "/api/detect-language", {
          country: "US",
          headers: { "accept-language": "zz-ZZ,zz;q=0.9,fa;q=0.5,nl;q=0.4" },
        })
      ).json.language,
    ).toBe("fa");
    expect(
      (await call(detectLanguage, "/api/detect-language", { headers: { "accept-language": "nl;q=0.2, en;q=0.8" } }))
        .json.language,
    ).toBe("en");
    expect(
      (await call(detectLanguage, "/api/detect-language", { headers: { "accept-language": "fa;q=0, de" } })).json
        .language,
    ).toBe("en");
  });
  test("no hint, or a hostile header, gives English", async () => {
    expect((await call(detectLanguage, "/api/detect-language")).json.language).toBe("en");
    expect(
      (
        await call(detectLanguage, "/api/detect-language", {
          headers: { "accept-language": ";;;q=abc,<script>," + "x".repeat(5000) },
        })
      ).json.language,
    ).toBe("en");
  });
  test("other methods answer 405 with Allow", async () => {
    const res = await call(detectLanguage, "/api/detect-language", { method: "POST" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET");
  });
});

describe("POST /api/contact", () => {
  test("stores the enquiry unprocessed and answers 201 with its id and reference", async () => {
    const res = await call(contact, "/api/contact", { body: valid });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({ success: true, id: expect.any(Number), reference: expect.any(String) });
    // The reference the form shows is the one the acknowledgement email quotes (E- and five digits).
    expect(res.json.reference).toBe(`E-${String(res.json.id).padStart(5, "0")}`);
    const stored = (await listEnquiries(test_.db)).items.find((s) => s.id === res.json.id);
    expect(stored).toMatchObject({ ...valid, stage: "new" });
    expect(new Date(stored!.createdAt).toISOString()).toBe(stored!.createdAt);
  });
  test("company is optional; empty becomes null", async () => {
    const res = await call(contact, "/api/contact", { body: { ...valid, company: "" } });
    expect(res.status).toBe(201);
    const stored = (await listEnquiries(test_.db)).items.find((s) => s.id === res.json.id);
    expect(stored?.company).toBeNull();
    expect((await call(contact, "/api/contact", { body: { ...valid, company: undefined } })).status).toBe(201);
  });
  test("Persian, emoji and line breaks are stored and returned intact", async () => {
    const message = "سلام! ما می‌خواهیم در هلند شرکت ثبت کنیم.\nلطفاً با ما تماس بگیرید 🙏\r\nTweede regel.";
    const res = await call(contact, "/api/contact", {
      body: { ...valid, firstName: "سارا", lastName: "رحیمی", message },
    });
    expect(res.status).toBe(201);
    const stored = (await listEnquiries(test_.db)).items.find((s) => s.id === res.json.id);
    expect(stored).toMatchObject({ firstName: "سارا", lastName: "رحیمی", message: message.trim() });
  });
  test("markup and SQL are stored as plain text, not interpreted", async () => {
    const hostile = {
      ...valid,
      firstName: "<script>alert(1)</script>",
      company: "'); DROP TABLE enquiries; --",
      message: "<img src=x onerror=alert(1)> hello there",
    };
    const res = await call(contact, "/api/contact", { body: hostile });
    expect(res.status).toBe(201);
    const stored = (await listEnquiries(test_.db)).items.find((s) => s.id === res.json.id);
    expect(stored).toMatchObject({ firstName: hostile.firstName, company: hostile.company, message: hostile.message });
  });
  test.each([
    ["firstName", { firstName: "S" }, "First name must be at least 2 characters"],
    ["lastName", { lastName: "" }, "Last name must be at least 2 characters"],
    ["email", { email: "not-an-email" }, "Please enter a valid email address"],
    ["message", { message: "short" }, "Message must be at least 10 characters"],
    ["service", { service: "" }, "Please select a service"],
  ])("rejects a bad %s with 400 naming the field", async (field, change, message) => {
    const res = await call(contact, "/api/contact", { body: { ...valid, ...change } });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ success: false, message, errors: { [field]: [message] } });
  });
  test("missing fields and wrong types: 400 with every field's errors", async () => {
    const res = await call(contact, "/api/contact", { body: { firstName: 42, email: ["a@b.c"], message: null } });
    expect(res.status).toBe(400);
    expect(Object.keys(res.json.errors).sort()).toEqual(["email", "firstName", "lastName", "message", "service"]);
    expect((await call(contact, "/api/contact", { body: [] })).status).toBe(400);
    expect((await call(contact, "/api/contact", { body: "just a string" })).status).toBe(400);
  });
  test("a field longer than its limit is refused, not truncated", async () => {
    const res = await call(contact, "/api/contact", { body: { ...valid, message: "x".repeat(5001) } });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe("Message must be at most 5000 characters");
  });
  test("a body over 32 KB answers 413, with or without Content-Length", async () => {
    const big = JSON.stringify({ ...valid, message: "x".repeat(40_000) });
    expect(
      (
        await call(contact, "/api/contact", {
          raw: big,
          headers: { "content-type": "application/json", "content-length": String(big.length) },
        })
      ).status,
    ).toBe(413);
    expect(
      (await call(contact, "/api/contact", { raw: big, headers: { "content-type": "application/json" } })).status,
    ).toBe(413);
  });
  test("malformed JSON answers 400, another content type 415", async () => {
    const bad = await call(contact, "/api/contact", {
      raw: '{"firstName": "Sara",',
      headers: { "content-type": "application/json" },
    });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ success: false, message: "Malformed JSON in request body" });
    expect(
      (await call(contact, "/api/contact", { raw: "firstName=Sara", headers: { "content-type": "text/plain" } }))
        .status,
    ).toBe(415);
  });
  test("GET answers 405 with Allow: POST", async () => {
    const res = await call(contact, "/api/contact");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
  });
  test("no answer carries a stack trace or SQL", async () => {
    const res = await call(contact, "/api/contact", { body: { ...valid, email: "x".repeat(300) } });
    expect(res.text).not.toMatch(/at \w+ \(|node_modules|SELECT|INSERT/);
  });
});

describe("POST /api/newsletter", () => {
  test("a new and an already subscribed address get the same answer (202), so it tells nothing", async () => {
    const first = await call(newsletter, "/api/newsletter", { body: { email: "Reader@Example.com", language: "fa" } });
    await test_.db.updateTable("newsletterSubscribers").set({ isActive: true, confirmedAt: new Date() }).execute();
    const again = await call(newsletter, "/api/newsletter", { body: { email: "reader@example.com", language: "fa" } });
    expect(first.status).toBe(202);
    expect(again.status).toBe(first.status);
    expect(again.text).toBe(first.text);
    expect(first.json.success).toBe(true);
    const rows = await test_.db
      .selectFrom("newsletterSubscribers")
      .selectAll()
      .where("email", "ilike", "reader@example.com")
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ language: "fa", isActive: true });
  });
  test("language defaults to en; anything but one of the site's languages is refused", async () => {
    expect((await call(newsletter, "/api/newsletter", { body: { email: "default@example.com" } })).status).toBe(202);
    const bad = await call(newsletter, "/api/newsletter", { body: { email: "x@example.com", language: "zz" } });
    expect(bad.status).toBe(400);
  });
  test("a bad email is 400 with the published message", async () => {
    const res = await call(newsletter, "/api/newsletter", { body: { email: "nope" } });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe("Please enter a valid email address");
  });
});

describe("POST /api/contact as a plain form (no JavaScript)", () => {
  const form = (fields: Record<string, string>) =>
    call(contact, "/api/contact", {
      raw: new URLSearchParams(formBody(fields)).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });

  test("stores the enquiry and redirects to the thank-you page in the visitor's language", async () => {
    const res = await form({ ...valid, firstName: "Formpost", lang: "fa" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/fa/enquiry/sent/");
    expect((await listEnquiries(test_.db)).items.some((s) => s.firstName === "Formpost")).toBe(true);
  });
  test("invalid input redirects to the error page and stores nothing", async () => {
    const res = await form({ ...valid, firstName: "Invalidpost", email: "nope", lang: "nl" });
    expect(res.headers.get("location")).toBe("/nl/enquiry/error/");
    expect((await listEnquiries(test_.db)).items.some((s) => s.firstName === "Invalidpost")).toBe(false);
  });
  test("an unknown language falls back to English; a huge form is refused", async () => {
    expect((await form({ ...valid, lang: "../../evil" })).headers.get("location")).toBe("/en/enquiry/sent/");
    expect((await form({ ...valid, message: "x".repeat(40_000) })).headers.get("location")).toBe("/en/enquiry/error/");
  });
});
