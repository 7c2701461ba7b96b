/**
 * The team's profiles (src/data/team.json) as the running server should know them. On Netlify a
 * commit of the content editor redeploys the functions with the new file. Under `npm start` the
 * functions are imported once, so the import below is the file as it was when the server started,
 * while a member added from the content editor (the local publisher) is in the working copy at once.
 * So with the local publisher the working copy's file is read again when it changed (size and time,
 * looked at once a second at most), checked by the site's schema; a file that is missing, half
 * written by hand or invalid keeps the last good list.
 */
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import built from "#src/data/team.json" with { type: "json" };
import { teamFile, type TeamMember } from "#src/data/content-schema.ts";
import { publishConfig } from "#server/config.ts";

/** Where the file is in a working copy. */
const TEAM_FILE = "src/data/team.json";

/** How often (ms) the working copy's file is looked at, at most: the booking asks for it per slot. */
const LOOK_EVERY = 1000;

// The copy check refuses an invalid team.json before every build, so the imported file is taken as
// it is (not parsed again here: a language added before its team texts must not stop the functions).
const BUILT: readonly TeamMember[] = built as TeamMember[];

let known = { stamp: "", lookedAt: 0, team: BUILT };

/** The team members now: the deployed file, or under the local publisher the working copy's. */
export function teamNow(): readonly TeamMember[] {
  const now = Date.now();
  if (now - known.lookedAt < LOOK_EVERY) return known.team;
  known = { ...known, lookedAt: now };
  try {
    const config = publishConfig();
    if (config.provider !== "git") return (known = { ...known, team: BUILT }).team;
    const file = path.join(config.gitDir, TEAM_FILE);
    const { size, mtimeMs } = statSync(file);
    const stamp = `${file}:${size}:${mtimeMs}`;
    if (stamp === known.stamp) return known.team;
    const parsed = teamFile.safeParse(JSON.parse(readFileSync(file, "utf8")));
    known = { stamp, lookedAt: now, team: parsed.success ? parsed.data : known.team };
  } catch {
    // No working copy here (or no configuration yet): the list stays as it was.
  }
  return known.team;
}

/** The working copy's file changed in this process (a member added): the next teamNow() looks at it. */
export function lookAgain() {
  known = { ...known, lookedAt: 0 };
}

/** A value derived from the team (a map by id), made again only when the team changed. */
export function fromTeam<T>(make: (team: readonly TeamMember[]) => T): () => T {
  let made: { team: readonly TeamMember[]; value: T } | undefined;
  return () => {
    const team = teamNow();
    if (made?.team !== team) made = { team, value: make(team) };
    return made.value;
  };
}
