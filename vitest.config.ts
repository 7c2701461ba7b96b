import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "functions/**/*.test.ts", "db/**/*.test.ts", "scripts/**/*.test.ts"],
    environment: "node",
  },
});
