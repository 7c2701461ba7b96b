import { randomBytes } from "node:crypto";
import { describe, expect, test } from "vitest";
import { isSealed, seal, SealBrokenError, unseal } from "./seal.ts";

const key = randomBytes(32);

describe("seal / unseal", () => {
  test("a sealed value opens to what was sealed, including non-Latin text", () => {
    for (const plain of [
      "s3cret",
      "https://calendar.google.com/calendar/ical/a%40b/private-0f3c/basic.ics",
      "گذرواژه",
    ]) {
      const sealed = seal(plain, key);
      expect(isSealed(sealed)).toBe(true);
      expect(sealed).not.toContain(plain);
      expect(unseal(sealed, key)).toBe(plain);
    }
  });

  test("sealing twice gives two texts (a fresh nonce each time)", () => {
    expect(seal("same", key)).not.toBe(seal("same", key));
  });

  test("another key, or one altered character, does not open it", () => {
    const sealed = seal("s3cret", key);
    expect(() => unseal(sealed, randomBytes(32))).toThrow(SealBrokenError);
    const body = Buffer.from(sealed.slice("sealed:v1:".length), "base64");
    body[body.length - 1] ^= 1;
    expect(() => unseal(`sealed:v1:${body.toString("base64")}`, key)).toThrow(SealBrokenError);
  });

  test("a value stored before sealing is read as it is", () => {
    expect(unseal("https://example.com/a.ics", key)).toBe("https://example.com/a.ics");
    expect(isSealed("https://example.com/a.ics")).toBe(false);
  });
});
