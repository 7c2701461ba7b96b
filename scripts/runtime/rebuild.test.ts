/**
 * The site's rebuild hook (scripts/runtime/rebuild.mjs) in a throwaway folder with stand-in scripts: the
 * copy check, then the build, each with an environment from an allowlist (issue 29: an editor's
 * `__proto__.NODE_OPTIONS` ran their code in the rebuild's child process, as uid 0).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { registeredRebuild, registerRebuild } from "#functions/_lib/publish/rebuild.ts";
import { BUILD_SCRIPT, CHECK_COPY_SCRIPT, rebuildSite, registerSiteRebuild } from "./rebuild.mjs";

let dir: string;
const POLLUTED = ["NODE_OPTIONS", "POLLUTED"];
afterEach(() => {
  for (const name of POLLUTED) delete (Object.prototype as Record<string, unknown>)[name];
  delete process.env.JWT_SECRET_FOR_TEST;
  delete process.env.NODE_OPTIONS_FOR_TEST;
  registerRebuild(null);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Stand-ins for the project's scripts: each records the environment it was given. */
function project(checkExit = 0) {
  dir = mkdtempSync(path.join(tmpdir(), "rebuild-"));
  mkdirSync(path.join(dir, path.dirname(CHECK_COPY_SCRIPT)), { recursive: true });
  mkdirSync(path.join(dir, path.dirname(BUILD_SCRIPT)), { recursive: true });
  const record = (name: string, exit: number) =>
    `process.getBuiltinModule("node:fs").writeFileSync(${JSON.stringify(path.join(dir, `${name}.json`))}, JSON.stringify(process.env)); console.log("${name} ran"); process.exit(${exit});`;
  writeFileSync(path.join(dir, CHECK_COPY_SCRIPT), record("check", checkExit));
  writeFileSync(path.join(dir, BUILD_SCRIPT), record("build", 0));
}
const seen = (name: string) =>
  JSON.parse(readFileSync(path.join(dir, `${name}.json`), "utf8")) as Record<string, string>;

describe("rebuildSite", () => {
  // The scripts moved once (scripts/ grouped by feature) while the hook still named the old paths.
  test("the copy check and the build it runs are the project's own scripts", () => {
    const root = path.resolve(import.meta.dirname, "../..");
    expect(existsSync(path.join(root, CHECK_COPY_SCRIPT)), CHECK_COPY_SCRIPT).toBe(true);
    expect(existsSync(path.join(root, BUILD_SCRIPT)), BUILD_SCRIPT).toBe(true);
  });

  test("runs the copy check, then the build; neither gets an inherited key, a secret or NODE_OPTIONS", async () => {
    project();
    const proto = Object.prototype as Record<string, unknown>;
    proto.NODE_OPTIONS = "--import=data:text/javascript,process.exit(7)";
    proto.POLLUTED = "yes";
    process.env.JWT_SECRET_FOR_TEST = "secret";
    process.env.PUBLIC_BRAND_NAME_FOR_TEST = "Brand";
    const { code, output } = await rebuildSite(dir);
    for (const name of POLLUTED) delete proto[name];
    expect(code).toBe(0);
    expect(output).toBe("check ran\nbuild ran\n");
    for (const name of ["check", "build"]) {
      const env = seen(name);
      expect(env.NODE_OPTIONS).toBeUndefined();
      expect(env.POLLUTED).toBeUndefined();
      expect(env.JWT_SECRET_FOR_TEST).toBeUndefined();
      expect(env.PUBLIC_BRAND_NAME_FOR_TEST).toBe("Brand");
      expect(env.PATH).toBe(process.env.PATH);
      expect(env.ASTRO_TELEMETRY_DISABLED).toBe("1");
    }
    delete process.env.PUBLIC_BRAND_NAME_FOR_TEST;
  });

  test("a refused copy check stops before the build and answers its output", async () => {
    project(1);
    const { code, output } = await rebuildSite(dir);
    expect(code).toBe(1);
    expect(output).toBe("check ran\n");
    expect(() => seen("build")).toThrow();
  });

  test("registerSiteRebuild makes it the publisher's rebuild hook", () => {
    dir = mkdtempSync(path.join(tmpdir(), "rebuild-"));
    expect(registeredRebuild()).toBeNull();
    registerSiteRebuild();
    expect(registeredRebuild()).toBe(rebuildSite);
  });
});
