import { describe, expect, test } from "vitest";
import { allowedMoves, canMove, enquiryReference, LEAD_STAGES, meetingReference, parseReference } from "./leads.ts";

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
