/**
 * `npm run check:commits [-- range]`: the commits in a range (the last 20 by default) whose
 * subject is over 72 characters or that have no body (docs/architecture.md#commits). Exits 1 when
 * one is found. Merges are left out.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export const SUBJECT_MAX = 72;

export interface CommitMessage {
  hash: string;
  subject: string;
  body: string;
}

/** What is wrong with one commit message, or an empty list. */
export function commitProblems({ subject, body }: Pick<CommitMessage, "subject" | "body">): string[] {
  const problems: string[] = [];
  if (subject.length > SUBJECT_MAX) problems.push(`subject is ${subject.length} characters (at most ${SUBJECT_MAX})`);
  if (/\.$/.test(subject)) problems.push("subject ends with a full stop");
  if (!body.trim()) problems.push("no body saying why");
  return problems;
}

/** The non-merge commits of a git range, oldest last. */
export function commitsIn(range: string, cwd = process.cwd()): CommitMessage[] {
  const out = execFileSync("git", ["log", "--no-merges", "--format=%H%x1f%s%x1f%b%x1e", range], {
    cwd,
    encoding: "utf8",
  });
  return out
    .split("\x1e")
    .map((record) => record.replace(/^\n/, ""))
    .filter(Boolean)
    .map((record) => {
      const [hash, subject, body] = record.split("\x1f");
      return { hash, subject, body: body ?? "" };
    });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const range = process.argv[2] ?? "-20";
  const commits = range.startsWith("-") ? commitsIn(`HEAD~${range.slice(1)}..HEAD`) : commitsIn(range);
  let bad = 0;
  for (const commit of commits) {
    const problems = commitProblems(commit);
    if (!problems.length) continue;
    bad++;
    console.log(`${commit.hash.slice(0, 7)} ${commit.subject.slice(0, 60)}…: ${problems.join("; ")}`);
  }
  console.log(`${commits.length - bad} of ${commits.length} commits follow docs/architecture.md#commits.`);
  process.exitCode = bad ? 1 : 0;
}
