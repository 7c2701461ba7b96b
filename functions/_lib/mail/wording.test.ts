/**
 * The visitor's emails read as a native reader expects: a formal Persian greeting for a
 * legal and immigration service, idiomatic Dutch for a meeting that is not confirmed yet.
 */
import { describe, expect, test } from "vitest";
import type { Language } from "#shared/languages.ts";
import { visitorEnquiryEmail, visitorMeetingEmail, type EnquiryDetails, type MeetingDetails } from "./templates";

const enquiry = (language: Language): EnquiryDetails => ({
  id: 42,
  firstName: "Sara",
  lastName: "Rahimi",
  email: "sara@example.com",
  company: null,
  service: "startup-visa",
  message: "Hello there, tell me more.",
  language,
  createdAt: "2026-11-23T10:00:00.000Z",
});
const meeting = (language: Language): MeetingDetails => ({
  id: 17,
  name: "Sara Rahimi",
  email: "sara@example.com",
  phone: "+31 6 1234 5678",
  date: "2026-12-01",
  time: "10:00",
  language,
  createdAt: "2026-11-23T10:00:00.000Z",
});

describe("Persian emails", () => {
  test("greet formally with «گرامی», not the familiar «عزیز»", () => {
    const { text, html } = visitorEnquiryEmail(enquiry("fa"));
    expect(text).toContain("Sara گرامی،");
    expect(`${text}${html}`).not.toContain("عزیز");
  });
});

describe("Dutch emails", () => {
  test("say in plain Dutch that a meeting is not confirmed yet (no 'staat in afwachting')", () => {
    for (const stage of ["requested", "pending"] as const) {
      const { text } = visitorMeetingEmail(meeting("nl"), stage);
      expect(text).not.toContain("afwachting");
      expect(text).toMatch(/bevestig/);
    }
  });
});
