import { describe, expect, test } from "vitest";
import { createContext, loadFunctions } from "./functions-router.mjs";

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

describe("what a request costs the router and its Context", () => {
  test("a path without parameters gets one answer made at start, which no function can change", async () => {
    const { route } = await loadFunctions(process.cwd());
    const first = route("/api/admin/submissions");
    expect(route("/api/admin/submissions")).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first?.params)).toBe(true);
    // A function that wrote to its parameters would fail there, not change the next request's.
    expect(() => {
      "use strict";
      (first!.params as Record<string, string>).id = "1";
    }).toThrow(TypeError);
    expect(route("/api/admin/submissions")?.params).toEqual({});
    // With parameters, each request has its own.
    const a = route("/api/admin/submissions/1");
    const b = route("/api/admin/submissions/2");
    expect(a?.params).toEqual({ id: "1" });
    expect(b?.params).toEqual({ id: "2" });
    expect(a).not.toBe(b);
  });

  test("the Context: shared parts frozen, the rest per request, the request id made when asked", () => {
    const req = new Request("http://localhost:8888/api/contact?x=1");
    const waitUntil = () => {};
    const one = createContext({ req, ip: "10.0.0.1", params: { id: "1" }, waitUntil });
    const two = createContext({ req, ip: "10.0.0.2", params: {}, waitUntil, deployContext: "production" });
    expect(one).toMatchObject({ ip: "10.0.0.1", params: { id: "1" }, waitUntil, geo: {} });
    expect(two.ip).toBe("10.0.0.2");
    expect(one.site).toEqual({ url: "http://localhost:8888" });
    expect(one.url.href).toBe(req.url);
    expect(one.deploy).toEqual({ context: "dev", id: "local", published: false });
    expect(two.deploy.context).toBe("production");
    expect(one.server).toEqual({ region: "local" });
    expect(one.account).toEqual({ id: "local" });
    for (const shared of [one.geo, one.server, one.account, one.deploy]) expect(Object.isFrozen(shared)).toBe(true);
    expect(one.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(one.requestId).toBe(one.requestId);
    expect(two.requestId).not.toBe(one.requestId);
  });
});
