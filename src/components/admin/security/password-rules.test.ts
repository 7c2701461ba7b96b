import { describe, expect, test } from "vitest";
import { safeParse } from "zod/mini";
import { passwordChangeSchema } from "#shared/schemas/security.ts";
import { passwordProblems } from "./password-rules";

const form = (next: string, repeat = next, current = "the old one") => ({ current, next, repeat });
const serverAccepts = (next: string) =>
  safeParse(passwordChangeSchema, { currentPassword: "x", newPassword: next }).success;

describe("passwordProblems", () => {
  test("accepts what the server accepts", () => {
    for (const next of ["twelve chars", "x".repeat(72), "a\ttabbed password", "رمز عبور بلند"]) {
      expect(passwordProblems(form(next)), next).toEqual({});
      expect(serverAccepts(next), next).toBe(true);
    }
  });

  test("refuses what the server refuses, with the reason", () => {
    const refused = {
      "nine char": "tooShort",
      // The review's two: eleven characters, and a common password of twelve (in any case).
      "eleven char": "tooShort",
      password1234: "common",
      PassWord1234: "common",
      " qwerty123456 ": "common",
      ["x".repeat(73)]: "tooLong",
      ["ر".repeat(37)]: "tooLong",
      "a bell\u0007 in it": "invalid",
    };
    // 37 Persian letters are 74 bytes: few characters, too many bytes (bcrypt reads 72).
    for (const [next, problem] of Object.entries(refused)) {
      expect(passwordProblems(form(next)), next).toEqual({ next: problem });
      expect(serverAccepts(next), next).toBe(false);
    }
  });

  test("asks for the current password and the same new one twice", () => {
    expect(passwordProblems(form("a good new password", "a good new passw0rd", ""))).toEqual({
      current: "currentMissing",
      repeat: "mismatch",
    });
  });

  test("does not blame the repeat while the new password itself is wrong", () => {
    expect(passwordProblems(form("short", "other"))).toEqual({ next: "tooShort" });
  });
});
