/**
 * How the local publisher asks for the site to be rebuilt after a commit: through a hook that
 * whoever runs the server registers (`npm start` registers scripts/runtime/rebuild.mjs, which runs the
 * copy check and the build). No function starts a script by path; without a hook there is no rebuild.
 */

/** The outcome of one rebuild: exit code 0 when the new site is served, and the build's output (its end). */
export interface RebuildResult {
  code: number;
  output: string;
}

/** Rebuilds the site from the working copy `dir`. */
export type Rebuild = (dir: string) => Promise<RebuildResult>;

// On globalThis, so the server's runtime and the functions share it whichever loader imported each.
const HOOK = Symbol.for("bridgewise.content.rebuild");
const slot = globalThis as typeof globalThis & { [HOOK]?: Rebuild | null };

/** Registers the rebuild (null removes it). */
export function registerRebuild(hook: Rebuild | null): void {
  slot[HOOK] = hook;
}

/** The registered rebuild, or null. */
export const registeredRebuild = (): Rebuild | null => slot[HOOK] ?? null;
