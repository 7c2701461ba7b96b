import { describe, expect, test } from "vitest";
import { submissionLanguage } from "./language.ts";

const request = (headers: Record<string, string>) =>
  new Request("http://localhost:8888/api/contact", { method: "POST", headers });

describe("submissionLanguage", () => {
  test("the language the payload names wins", () => {
    expect(submissionLanguage(request({ referer: "http://localhost:8888/nl/" }), "fa")).toBe("fa");
  });
  test("else the language of the page the request came from", () => {
    expect(
      submissionLanguage(
        request({ referer: "http://localhost:8888/fa/startup-visa/", "accept-language": "nl" }),
        undefined,
      ),
    ).toBe("fa");
  });
  test("else the browser's preference, else English", () => {
    expect(
      submissionLanguage(request({ referer: "http://localhost:8888/", "accept-language": "zz, nl;q=0.5" }), undefined),
    ).toBe("nl");
    expect(submissionLanguage(request({ referer: "not a url" }), "zz")).toBe("en");
    expect(submissionLanguage(request({}), undefined)).toBe("en");
  });
});
