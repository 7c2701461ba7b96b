import { afterEach, describe, expect, test, vi } from "vitest";
import { prepareRuntime } from "./runtime.mjs";

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("ADMIN_PASSWORD follows the one password rule", () => {
  test.each([
    ["eleven char", /ADMIN_PASSWORD: The password must be at least 12 characters/],
    ["password1234", /ADMIN_PASSWORD: This password is one of the most common ones/],
  ])("%s stops the start before anything runs, naming the variable", async (password, message) => {
    vi.stubEnv("NODE_ENV", "");
    vi.stubEnv("ADMIN_USERNAME", "owner");
    vi.stubEnv("ADMIN_PASSWORD", password);
    await expect(prepareRuntime({ log: { log: () => {} } as unknown as Console })).rejects.toThrow(message);
  });
});
