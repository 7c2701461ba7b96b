import { describe, expect, test } from "vitest";
import { loadFunctions } from "./functions-router.mjs";

describe("loadFunctions: each function routed by its own config.path", () => {
  test("literal paths, parameters, and paths no function serves", async () => {
    const { route, functions } = await loadFunctions(process.cwd());
    expect(functions.map((f) => f.name)).not.toContain("outbox-retry"); // scheduled, no path
    expect(route("/api/contact")?.name).toBe("contact");
    expect(route("/api/meetings/available-slots")?.name).toBe("meetings");
    expect(route("/api/admin/submissions")).toMatchObject({ name: "admin-submissions", params: {} });
    expect(route("/api/admin/submissions/42")).toMatchObject({ name: "admin-submissions", params: { id: "42" } });
    expect(route("/api/admin/meetings/7")).toMatchObject({ name: "admin-meetings", params: { id: "7" } });
    expect(route("/api/admin/meetings/7/cancel")).toMatchObject({ name: "admin-meetings", params: { id: "7" } });
    expect(route("/api/meetings/manage/move")?.name).toBe("meeting-manage");
    expect(route("/api/admin/availability/closures/3")).toMatchObject({
      name: "admin-availability",
      params: { id: "3" },
    });
    for (const path of ["/api/contactx", "/api/admin/submissions/1/2", "/api", "/en/", "/api/admin/submissionsX/1"]) {
      expect(route(path), path).toBeNull();
    }
  });
});
