/**
 * The environment of a child process the server starts (git, the site's rebuild): built from an
 * allowlist of the server's own variables, never a copy of `process.env`. Node passes a child every
 * enumerable key of the `env` object, inherited ones included, so a copy (`{ ...process.env }`) would
 * also pass anything written onto Object.prototype, and every secret of the server.
 */

/** What any child needs to run: where programs are, the home directory, the locale, the time zone. */
export const BASE_ENV = ["PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR"] as const;

export interface ChildEnvOptions {
  /** More variable names to pass on when the server has them. */
  pass?: readonly string[];
  /** Name prefixes to pass on (e.g. `PUBLIC_`). */
  prefixes?: readonly string[];
  /** Values set for the child whatever the server has. */
  set?: Readonly<Record<string, string>>;
}

/** An object without a prototype holding only the allowed variables the server itself has (own keys). */
export function childEnv({ pass = [], prefixes = [], set = {} }: ChildEnvOptions = {}): NodeJS.ProcessEnv {
  const env = Object.create(null) as NodeJS.ProcessEnv;
  const allowed = new Set<string>([...BASE_ENV, ...pass]);
  for (const name of Object.keys(process.env)) {
    if (!allowed.has(name) && !prefixes.some((prefix) => name.startsWith(prefix))) continue;
    const value = Object.getOwnPropertyDescriptor(process.env, name)?.value;
    if (typeof value === "string") env[name] = value;
  }
  for (const name of Object.keys(set)) env[name] = set[name];
  return env;
}
