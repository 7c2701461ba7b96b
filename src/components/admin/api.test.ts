import { describe, expect, test } from "vitest";
import { errorMessage } from "./api";

describe("errorMessage", () => {
  test("takes the message field, else the error field, else the JSON text", () => {
    expect(errorMessage('{"success":false,"message":"Nope","error":"E"}', "Bad Request")).toEqual({
      message: "Nope",
      body: { success: false, message: "Nope", error: "E" },
    });
    expect(errorMessage('{"error":"Broken"}', "Bad Request").message).toBe("Broken");
    expect(errorMessage('{"code":42}', "Bad Request").message).toBe('{"code":42}');
  });

  test("takes plain text, else the status text", () => {
    expect(errorMessage("Gateway timeout", "Gateway Timeout")).toEqual({
      message: "Gateway timeout",
      body: "Gateway timeout",
    });
    expect(errorMessage("", "Internal Server Error").message).toBe("Internal Server Error");
  });
});
