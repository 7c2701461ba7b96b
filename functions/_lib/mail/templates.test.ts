import { describe, expect, test } from "vitest";
import { serviceNames } from "#src/i18n/index.ts";
import { formatNumber } from "#shared/format.ts";
import { LANGUAGES, UnknownLanguageError, type Language } from "#shared/languages.ts";
import { MEETING_MINUTES } from "#shared/office.ts";
import { SERVICE_IDS } from "#shared/services.ts";
import {
  companyEnquiryEmail,
  companyMeetingEmail,
  dueDigestEmail,
  inviteText,
  visitorEnquiryEmail,
  visitorMeetingEmail,
  type EnquiryDetails,
  type MeetingDetails,
} from "./templates.ts";

const enquiry = (language: Language, service: string): EnquiryDetails => ({
  id: 42,
  firstName: "Leila",
  lastName: "Ahmadi",
  email: "leila@example.com",
  company: null,
  service,
  message: "We would like to open an office in Amsterdam.",
  language,
  createdAt: "2026-11-23T09:10:00.000Z",
});

const meeting = (language: Language): MeetingDetails => ({
  id: 17,
  name: "Leila Ahmadi",
  email: "leila@example.com",
  phone: "+98 912 345 6789",
  date: "2026-11-24",
  time: "11:00",
  language,
  createdAt: "2026-11-23T09:10:00.000Z",
});

describe("service names in the emails", () => {
  test.each(LANGUAGES)("the visitor's acknowledgement in %s names every catalogue service in that language", (lang) => {
    for (const id of SERVICE_IDS) {
      const name = serviceNames(lang)[id];
      const email = visitorEnquiryEmail(enquiry(lang, id));
      expect(email.text, `${lang}: ${id}`).toContain(name);
      expect(email.html).toContain(name.replace(/&/g, "&#38;"));
    }
  });

  test("the company's notification names the service in English with its id", () => {
    for (const id of SERVICE_IDS) {
      const email = companyEnquiryEmail(enquiry("fa", id));
      expect(email.text).toContain(`Service: ${serviceNames("en")[id]} (${id})`);
      expect(email.subject).toContain(serviceNames("en")[id]);
    }
  });

  test("a service outside the catalogue: the company sees it as typed, the visitor's email leaves it out", () => {
    expect(companyEnquiryEmail(enquiry("en", "consulting")).text).toContain("Service: consulting");
    expect(visitorEnquiryEmail(enquiry("en", "consulting")).text).not.toMatch(/Service:/);
  });
});

describe("languages in the emails", () => {
  test.each(LANGUAGES)("%s: the meeting length is the office's, in the language's own digits", (lang) => {
    const minutes = formatNumber(lang, MEETING_MINUTES);
    expect(visitorMeetingEmail(meeting(lang), "requested").text).toContain(minutes);
    expect(inviteText(meeting(lang)).description).toContain(minutes);
  });

  test("Persian emails say ۳۰, right to left", () => {
    const email = visitorMeetingEmail(meeting("fa"), "requested");
    expect(email.text).toContain("جلسهٔ ۳۰ دقیقه‌ای");
    expect(email.html).toMatch(/<html lang="fa" dir="rtl">/);
  });

  test("the company's emails name the visitor's language in English", () => {
    expect(companyEnquiryEmail(enquiry("fa", "other")).text).toContain("Language: Persian (fa)");
    expect(companyMeetingEmail(meeting("nl")).subject).toMatch(/\(Dutch\)$/);
  });

  test("an unknown language never becomes an email, in English or otherwise: every template refuses it", () => {
    // "zz" is no ISO 639 code: no later language can make it known.
    const unknown = "zz" as Language;
    const builders = [
      () => visitorEnquiryEmail(enquiry(unknown, "other")),
      () => companyEnquiryEmail(enquiry(unknown, "other")),
      () => visitorMeetingEmail(meeting(unknown), "confirmed"),
      () => companyMeetingEmail(meeting(unknown)),
      () => inviteText(meeting(unknown)),
    ];
    for (const build of builders) expect(build).toThrow(UnknownLanguageError);
    expect(builders[0]).toThrow(/"zz" in enquiry E-00042/);
  });
});

describe("the company's notification of a new lead", () => {
  const source = {
    page: "/fa/startup-visa",
    landing: "/fa/",
    referrer: "t.me",
    utmSource: "telegram",
    utmMedium: "social",
    utmCampaign: "launch",
    heard: "instagram",
  };

  test("links to the person's page by the record's reference, never with the address in the URL", () => {
    const input = { ...enquiry("fa", "other"), source };
    const e = companyEnquiryEmail(input);
    const eRef = `E-${String(input.id).padStart(5, "0")}`;
    expect(e.text).toContain(`Open this enquiry: https://bridgewise.eu/admin/person?ref=${eRef}`);
    expect(e.html).toContain(`href="https://bridgewise.eu/admin/person?ref=${eRef}"`);
    const mInput = { ...meeting("nl"), source };
    const m = companyMeetingEmail(mInput);
    expect(m.text).toContain(
      `Open this meeting: https://bridgewise.eu/admin/person?ref=M-${String(mInput.id).padStart(5, "0")}`,
    );
    for (const body of [e.text, e.html, m.text, m.html]) expect(body).not.toMatch(/\?[^"\s]*leila(%40|@)/);
  });

  test("names its source, campaign, medium, first page, page of sending and the visitor's own answer", () => {
    for (const email of [
      companyEnquiryEmail({ ...enquiry("fa", "other"), source }),
      companyMeetingEmail({ ...meeting("fa"), source }),
    ]) {
      expect(email.text).toContain("Source: telegram");
      expect(email.text).toContain("Campaign: launch");
      expect(email.text).toContain("Medium: social");
      expect(email.text).toContain("First page: /fa/");
      expect(email.text).toContain("Sent from: /fa/startup-visa");
      expect(email.text).toContain("Heard of us via: Instagram");
    }
    expect(companyEnquiryEmail({ ...enquiry("en", "other"), source: { ...source, utmSource: null } }).text).toContain(
      "Source: t.me",
    );
    expect(companyEnquiryEmail(enquiry("en", "other")).text).toContain("Source: Not recorded");
  });
});

describe("dueDigestEmail", () => {
  const lead = {
    id: 42,
    reference: "E-00042",
    name: '<script>alert(1)</script> evil.example.com/x"',
    reasons: ["followUp", "overdue"] as ("followUp" | "overdue")[],
    followUpOn: "2026-11-25",
    receivedAt: "2026-11-20T16:00:00.000Z",
    answerDueBy: "2026-11-24",
    ownerId: 1,
    ownerName: "sara",
  };

  test("a lead's name is escaped and never a link; the only links are ours", () => {
    const { html, text, subject } = dueDigestEmail("en", { username: "sara", today: "2026-11-25", leads: [lead] });
    expect(subject).toBe("Due for you on Wednesday, 25 November 2026");
    expect(html).not.toContain("<script>");
    expect(html).toContain("&#60;script&#62;");
    expect(html).not.toMatch(/href="[^"]*evil/);
    expect([...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1])).toEqual([
      "https://bridgewise.eu/admin/person?ref=E-00042",
      "https://bridgewise.eu/admin/leads",
    ]);
    expect(text).toContain("Follow-up date: Wed, 25 Nov 2026 · Waiting for our answer; it was due by Tue, 24 Nov 2026");
  });

  test("in Persian: right to left, Jalali dates in Persian digits", () => {
    const { html, text } = dueDigestEmail("fa", { username: "reza", today: "2026-11-25", leads: [lead] });
    expect(html).toContain('<html lang="fa" dir="rtl">');
    expect(text).toContain("۴ آذر ۱۴۰۵");
    expect(text.replace(/E-00042|https:\/\/\S+|<script>alert\(1\)<\/script>|evil\.example\.com\/x/g, "")).not.toMatch(
      /[0-9]/,
    );
  });
});
