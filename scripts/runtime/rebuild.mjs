// The site's rebuild after a content editor's save under `npm start`: the copy check first, then the
// build (scripts/build/build.mjs swaps dist/ only when it succeeds), in the working copy the save was
// committed to. start.mjs registers it as the publisher's rebuild hook (functions/_lib/publish/rebuild.ts),
// so no function starts a script by path.
// The children get an environment from an allowlist (the site's public settings), never a copy of
// process.env: no secret, no NODE_OPTIONS, nothing inherited from a polluted Object.prototype.
import { spawn } from "node:child_process";
import { childEnv } from "#functions/_lib/publish/child-env.ts";
import { registerRebuild } from "#functions/_lib/publish/rebuild.ts";

/** The project's copy check and build, run in the working copy (paths from its root). */
export const CHECK_COPY_SCRIPT = "scripts/build/check-copy.ts";
export const BUILD_SCRIPT = "scripts/build/build.mjs";

/** What the build may read: the public settings (src/config/site.ts), and SMTP_URL, whose host the privacy page names. */
export const buildEnv = () =>
  childEnv({
    pass: ["SITE_URL", "SMTP_URL", "NODE_ENV"],
    prefixes: ["PUBLIC_"],
    set: { ASTRO_TELEMETRY_DISABLED: "1", FORCE_COLOR: "0" },
  });

/** Runs `node <args>` in `dir`, collecting the last 20,000 characters of its output into `sink`. */
function run(dir, args, sink) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: dir, env: buildEnv() });
    const collect = (chunk) => sink.add(chunk.toString("utf8"));
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.on("error", (error) => {
      sink.add(String(error.message));
      resolve(1);
    });
    child.on("close", (code) => resolve(code ?? 1));
  });
}

/** The copy check (`--before-build`, as `npm run build` runs it), then the build: `{ code, output }`. */
export async function rebuildSite(dir) {
  let output = "";
  const sink = { add: (text) => (output = (output + text).slice(-20_000)) };
  const checked = await run(dir, ["--disable-warning=ExperimentalWarning", CHECK_COPY_SCRIPT, "--before-build"], sink);
  if (checked !== 0) return { code: checked, output };
  const built = await run(dir, [BUILD_SCRIPT], sink);
  return { code: built, output };
}

/** Makes rebuildSite the publisher's rebuild in this process (CONTENT_REBUILD=on calls it after each commit). */
export function registerSiteRebuild() {
  registerRebuild(rebuildSite);
}
