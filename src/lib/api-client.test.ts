import { afterEach, describe, expect, test, vi } from "vitest";
import { ApiError, NetworkError, apiRequest, errorTopic } from "./api-client";

const respond = (status: number, body: string, statusText = "") =>
  vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response(body, { status, statusText }));

afterEach(() => vi.restoreAllMocks());

describe("apiRequest", () => {
  test("sends cookies, and a JSON content type only with a body", async () => {
    const spy = respond(200, '{"ok":true}');
    await apiRequest("GET", "/api/user");
    expect(spy.mock.calls[0][1]).toEqual({ method: "GET", credentials: "include" });
    await apiRequest("POST", "/api/contact", { body: { a: 1 } });
    expect(spy.mock.calls[1][1]).toMatchObject({
      credentials: "include",
      headers: { "Content-Type": "application/json" },
      body: '{"a":1}',
    });
  });
  test.each([
    ['{"message":"timeSlotOccupied","error":"x"}', "timeSlotOccupied"],
    ['{"error":"Bad thing"}', "Bad thing"],
    ['{"code":42}', '{"code":42}'],
    ["Service down", "Service down"],
    ["", "Gateway Timeout"],
    ["<html>oops</html>", "<html>oops</html>"],
  ])("a failed answer %s becomes an error saying %s, with status and body", async (body, message) => {
    respond(504, body, "Gateway Timeout");
    const error = (await apiRequest("GET", "/x").catch((e) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe(message);
    expect(error.status).toBe(504);
  });
});

test("a 401 can resolve to null instead of throwing (the admin's current-user check)", async () => {
  respond(401, '{"success":false}');
  expect(await apiRequest("GET", "/api/user", { on401: "null" })).toBeNull();
  await expect(apiRequest("GET", "/api/user")).rejects.toMatchObject({ status: 401 });
});

test("no answer at all is a NetworkError", async () => {
  vi.spyOn(globalThis, "fetch").mockRejectedValue(new TypeError("Failed to fetch"));
  await expect(apiRequest("GET", "/api/user")).rejects.toBeInstanceOf(NetworkError);
});

describe("errorTopic", () => {
  test("maps server messages to the field they are about", () => {
    expect(errorTopic("Please enter a valid email address")).toBe("email");
    expect(errorTopic("Please enter a valid phone number")).toBe("phone");
    expect(errorTopic("First name must be at least 2 characters")).toBe("firstName");
    expect(errorTopic("Last name must be at least 2 characters")).toBe("lastName");
    expect(errorTopic("Name must be at least 2 characters")).toBe("name");
    expect(errorTopic("timeSlotOccupied")).toBeNull();
  });
});
