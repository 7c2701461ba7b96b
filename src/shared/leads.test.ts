import { describe, expect, test } from "vitest";
import {
  allowedMoves,
  canMove,
  enquiryReference,
  LEAD_STAGES,
  MAX_VALUE_CENTS,
  meetingReference,
  parseEuros,
  parseReference,
} from "./leads.ts";

describe("the stages", () => {
  test("run forward to client, back one step, lost from any open stage, and a lost lead reopens", () => {
    expect(allowedMoves("new")).toEqual(["replied", "meeting", "proposal", "client", "lost"]);
    expect(allowedMoves("replied")).toEqual(["new", "meeting", "proposal", "client", "lost"]);
    expect(allowedMoves("proposal")).toEqual(["meeting", "client", "lost"]);
    expect(allowedMoves("client")).toEqual(["proposal"]);
    expect(allowedMoves("lost")).toEqual(["new", "replied"]);
    expect(canMove("client", "lost")).toBe(false);
    expect(canMove("meeting", "new")).toBe(false);
    for (const stage of LEAD_STAGES) expect(canMove(stage, stage)).toBe(false);
  });
});

describe("references", () => {
  test("are written with five digits at least", () => {
    expect(enquiryReference(42)).toBe("E-00042");
    expect(meetingReference(1)).toBe("M-00001");
    expect(enquiryReference(1234567)).toBe("E-1234567");
  });

  test("are read back however they are typed", () => {
    for (const typed of ["E-00002", "e-2", "E2", " e - 0002 ", "E-۰۰۰۰۲", "E–2"]) {
      expect(parseReference(typed), typed).toEqual({ kind: "enquiry", id: 2 });
    }
    expect(parseReference("M-00001")).toEqual({ kind: "meeting", id: 1 });
    expect(parseReference(enquiryReference(98765))).toEqual({ kind: "enquiry", id: 98765 });
  });

  test("anything else is no reference", () => {
    for (const typed of ["", "E-", "E-0", "X-2", "Emma", "E-2x", "E-99999999999", "2", "__proto__"]) {
      expect(parseReference(typed), typed).toBeNull();
    }
  });
});

describe("a client's value as typed", () => {
  test("is read in whole euros or with cents, grouped or not, in Latin, Persian or Arabic digits", () => {
    const cents = {
      "4500": 450_000,
      " 4500.5 ": 450_050,
      "4500,50": 450_050,
      "4500٫50": 450_050,
      "4 500": 450_000,
      "4\u00a0500": 450_000,
      "4\u202f500": 450_000,
      "4,500": 450_000,
      "4.500": 450_000,
      "4.500,50": 450_050,
      "4,500.50": 450_050,
      "1.250.000": 125_000_000,
      "۴٬۵۰۰": 450_000,
      "۴۵۰۰٫۵۰": 450_050,
      "٤٥٠٠": 450_000,
      "€ 4 500": 450_000,
      "4500 EUR": 450_000,
      "0": 0,
      "10000000": MAX_VALUE_CENTS,
    };
    for (const [typed, expected] of Object.entries(cents)) expect(parseEuros(typed), typed).toBe(expected);
  });

  test("is nothing when nothing is typed, and refused when it is not a sum or too large", () => {
    expect(parseEuros("  ")).toBeUndefined();
    for (const typed of ["-5", "4,500,5", "45,00,000", "4.5.0", "4500.505", "abc", "10000000.01", "1e6", "4 5"])
      expect(parseEuros(typed), typed).toBeNull();
  });
});
