import { describe, expect, test } from "vitest";
import { FORGET_ROLE_SCRIPT, NAV_PAGES, NAV_ROLE_KEY, NAV_ROLE_SCRIPT, navRoleOf } from "./nav";

/** Runs an inline script of the layout against a stand-in <html> and sessionStorage. */
function run(script: string, stored: Record<string, string>, { blocked = false } = {}) {
  const dataset: Record<string, string> = {};
  const storage = {
    getItem: (key: string) => {
      if (blocked) throw new Error("SecurityError");
      return Object.hasOwn(stored, key) ? stored[key] : null;
    },
    removeItem: (key: string) => {
      if (blocked) throw new Error("SecurityError");
      delete stored[key];
    },
  };
  new Function("document", "sessionStorage", script)({ documentElement: { dataset } }, storage);
  return { dataset, stored };
}

describe("the navigation's role before the first paint", () => {
  test("a remembered role is shown on <html>", () => {
    for (const role of ["admin", "editor", "setup"])
      expect(run(NAV_ROLE_SCRIPT, { [NAV_ROLE_KEY]: role }).dataset).toEqual({ panelRole: role });
  });

  test("anything else, or storage that refuses, shows no role (an editor's view)", () => {
    for (const value of ["Admin", "superadmin", "__proto__", "admin ", "", "constructor"])
      expect(run(NAV_ROLE_SCRIPT, { [NAV_ROLE_KEY]: value }).dataset).toEqual({});
    expect(run(NAV_ROLE_SCRIPT, {}).dataset).toEqual({});
    expect(() => run(NAV_ROLE_SCRIPT, {}, { blocked: true })).not.toThrow();
  });

  test("the login page forgets it", () => {
    expect(run(FORGET_ROLE_SCRIPT, { [NAV_ROLE_KEY]: "admin", other: "kept" }).stored).toEqual({ other: "kept" });
    expect(() => run(FORGET_ROLE_SCRIPT, {}, { blocked: true })).not.toThrow();
  });
});

describe("the navigation's pages", () => {
  test("in the panel's order; an editor's are the texts and the security page", () => {
    expect(NAV_PAGES.map((p) => p.key)).toEqual([
      "leads",
      "meetings",
      "sources",
      "texts",
      "availability",
      "consultants",
      "privacy",
      "security",
      "audit",
    ]);
    expect(NAV_PAGES.filter((p) => !p.adminOnly).map((p) => p.key)).toEqual(["texts", "security"]);
  });

  test("the role a session shows: a second factor to set up first wins over the role", () => {
    expect(navRoleOf({ role: "admin" })).toBe("admin");
    expect(navRoleOf({ role: "editor" })).toBe("editor");
    expect(navRoleOf({ role: "admin", setup: true })).toBe("setup");
  });
});
