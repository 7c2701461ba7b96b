// `npm run admin:create`: creates an administrator, or sets a new password for an existing one (which
// signs out their sessions). Asks for the username and password, or takes them as flags:
//   npm run admin:create -- --username alice --password '…'
// Runs against DATABASE_URL (or the embedded database when it is unset), migrating it first.
import { createInterface } from "node:readline";
import { Writable } from "node:stream";
import { parseArgs } from "node:util";
import { ensureAdmin, passwordProblem } from "#db/admins.ts";
import { PASSWORD_MIN } from "#shared/passwords.ts";
import { isDatabaseUnavailable } from "#db/errors.ts";
import { migrateToLatest } from "#db/migrate.ts";
import { openScriptDatabase } from "../runtime/embedded-db.mjs";

const USAGE = `Usage: npm run admin:create [-- --username <name> --password <password>]
  Without flags it asks for both (the password is not shown while typed).
  A password given as a flag stays in your shell history; prefer the prompt.`;

let options;
try {
  options = parseArgs({
    options: {
      username: { type: "string", short: "u" },
      password: { type: "string", short: "p" },
      help: { type: "boolean", short: "h" },
    },
  }).values;
} catch (error) {
  console.error(`${error.message}\n${USAGE}`);
  process.exit(2);
}
if (options.help) {
  console.log(USAGE);
  process.exit(0);
}

const { username, password } = await readCredentials(options);
const usernameProblem = /^\S{1,64}$/.test(username)
  ? undefined
  : "The username must be 1 to 64 characters without spaces.";
const problem = usernameProblem ?? passwordProblem(password);
if (problem) {
  console.error(problem);
  process.exit(2);
}

let database;
try {
  database = await openScriptDatabase();
  await migrateToLatest(database.db);
  const { action } = await ensureAdmin(database.db, username, password);
  console.log(
    {
      created: `Created the administrator "${username}".`,
      updated: `Set a new password for "${username}"; their existing sessions are signed out.`,
      unchanged: `"${username}" already has this password; nothing changed.`,
    }[action],
  );
} catch (error) {
  console.error(`Could not create the administrator: ${describe(error)}`);
  process.exitCode = 1;
} finally {
  await database?.close();
}

/** Flags first; whatever is missing is read from stdin (prompted on a terminal, one per line when piped). */
async function readCredentials(flags) {
  if (flags.username !== undefined && flags.password !== undefined) {
    return { username: flags.username.trim(), password: flags.password };
  }
  // readline echoes what is typed through `output`; muting it hides the password.
  let muted = false;
  const output = new Writable({
    write(chunk, encoding, done) {
      if (!muted) process.stdout.write(chunk, encoding);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: Boolean(process.stdin.isTTY) });
  const lines = rl[Symbol.asyncIterator]();
  const ask = async (prompt, { hidden = false } = {}) => {
    process.stdout.write(prompt);
    muted = hidden;
    const { value, done } = await lines.next();
    muted = false;
    if (hidden || !process.stdin.isTTY) process.stdout.write("\n");
    if (done) {
      console.error("No input: give --username and --password, or answer the prompts.");
      process.exit(2);
    }
    return value;
  };
  try {
    const name = flags.username ?? (await ask("Username: "));
    const secret = flags.password ?? (await ask(`Password (at least ${PASSWORD_MIN} characters): `, { hidden: true }));
    return { username: name.trim(), password: secret };
  } finally {
    rl.close();
  }
}

function describe(error) {
  if (!(error instanceof Error)) return String(error);
  // AggregateError (both localhost addresses refused) has an empty message of its own.
  const message = error.message || error.errors?.map((e) => e.message).join("; ") || error.name;
  return isDatabaseUnavailable(error)
    ? `${message}\nCannot reach the database: is it running, and is DATABASE_URL right?`
    : message;
}
