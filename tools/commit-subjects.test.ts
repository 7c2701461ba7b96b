import { describe, expect, test } from "vitest";
import { commitProblems } from "./commit-subjects.ts";

describe("commit messages (docs/architecture.md#commits)", () => {
  test("accepts an imperative subject of at most 72 characters with a body", () => {
    expect(commitProblems({ subject: "Refuse prototype keys in the content API", body: "Why: …\n" })).toEqual([]);
  });

  test("refuses a subject over 72 characters, a full stop, and a missing body", () => {
    expect(commitProblems({ subject: "x".repeat(73), body: "why" })).toEqual(["subject is 73 characters (at most 72)"]);
    expect(commitProblems({ subject: "Add a thing.", body: "" })).toEqual([
      "subject ends with a full stop",
      "no body saying why",
    ]);
  });
});
