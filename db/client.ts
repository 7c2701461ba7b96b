import { CamelCasePlugin, Kysely, PostgresDialect, type PostgresPool } from "kysely";
import type pg from "pg";
import { databaseConfig, poolerWarning } from "#server/config.ts";
import { DatabaseNotConfiguredError, SchemaMismatchError } from "./errors.ts";
import { migrations } from "./migrations/index.ts";
import type { Database } from "./types.ts";

// Small by default: every function instance holds its own pool, and a serverless deploy can run many.
// The local server (one process for every function) asks for more with DATABASE_POOL_MAX.
function poolOptions() {
  const { poolMax, poolWaitMs } = databaseConfig();
  return {
    max: poolMax,
    // How long a query waits for a connection (opening one, or a free one of the pool) before the
    // answer is a 503. The local server, one process for every request, waits longer (runtime.mjs).
    connectionTimeoutMillis: poolWaitMs,
    idleTimeoutMillis: 10_000,
  };
}

function usesNeonDriver(connectionString: string): boolean {
  const { driver } = databaseConfig();
  if (driver) return driver === "neon";
  try {
    return new URL(connectionString).hostname.endsWith(".neon.tech");
  } catch {
    return false;
  }
}

/** How every client turns snake_case columns into camelCase keys; prepared reads map theirs with it too. */
export const camelCase = new CamelCasePlugin();

/** Each client's pool, once its first query has opened it (for db/prepared.ts). */
const openPools = new WeakMap<Kysely<Database>, pg.Pool>();

/**
 * The pool under a client made by createDb, once a query through Kysely has opened it (it opens on
 * the first one, and checks the schema there); undefined before that, and for any other Kysely (a
 * transaction's, a test's own).
 */
export function openPool(db: object): pg.Pool | undefined {
  return openPools.get(db as Kysely<Database>);
}

export interface CreateDbOptions {
  /**
   * Check once, on the first query, that the database has exactly this code's migrations; until it
   * does, every query fails with SchemaMismatchError (an answer of 503). For the functions' client.
   */
  checkSchema?: boolean;
}

/**
 * A Kysely client over a pooled connection; Neon's WebSocket driver for Neon hosts, `pg` otherwise.
 * The driver is loaded on the first query (a chunk of its own in a deployed function), so a cold
 * start loads only the one it uses.
 */
export function createDb(connectionString: string, { checkSchema = false }: CreateDbOptions = {}): Kysely<Database> {
  const pool = async (): Promise<PostgresPool> => {
    refuseWhileMismatched();
    const created = usesNeonDriver(connectionString)
      ? // Neon's Pool speaks pg's API over a WebSocket, which serverless runtimes allow.
        (new (await import("@neondatabase/serverless")).Pool({
          connectionString,
          ...poolOptions(),
        }) as unknown as pg.Pool)
      : new (await import("pg")).default.Pool({ connectionString, ...poolOptions() });
    // An idle client whose server goes away emits "error" on the pool; unhandled, it would crash the
    // process. The next query fails on its own and is answered there.
    created.on("error", (error: Error) => {
      console.error("database pool: idle client error:", error.message);
    });
    // A client checked out between two statements (inside a transaction) has no pool listener: when
    // its server stops ("terminating connection due to administrator command", a killed postmaster)
    // its "error" event would crash the process. Its next statement fails and is answered 503.
    created.on("connect", (client: pg.PoolClient) => {
      client.on("error", (error: Error) => console.error("database client error:", error.message));
    });
    if (checkSchema) {
      try {
        await assertSchemaMatches(created);
      } catch (error) {
        await created.end().catch(() => {});
        throw error;
      }
    }
    openPools.set(db, created);
    return created;
  };
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    plugins: [camelCase],
  });
  return db;
}

/** How long a mismatch found is answered without asking the database again. */
const MISMATCH_RECHECK_MS = 15_000;
let mismatch: { error: SchemaMismatchError; until: number } | undefined;

function refuseWhileMismatched(): void {
  if (mismatch && Date.now() < mismatch.until) throw mismatch.error;
  mismatch = undefined;
}

/**
 * One query per instance: the names in kysely_migration against this code's list (db/migrations).
 * A database behind (a deploy whose build did not migrate) or ahead (a newer deploy migrated it, and
 * this is an old instance, a rollback, or a preview on production's database) is refused.
 */
async function assertSchemaMatches(pool: pg.Pool): Promise<void> {
  let applied: string[];
  try {
    applied = (await pool.query<{ name: string }>("SELECT name FROM kysely_migration")).rows.map((r) => r.name);
  } catch (error) {
    if ((error as { code?: string }).code !== "42P01") throw error; // 42P01: no such table, nothing applied
    applied = [];
  }
  const known = Object.keys(migrations);
  const missing = known.filter((name) => !applied.includes(name));
  const unknown = applied.filter((name) => !Object.hasOwn(migrations, name));
  if (!missing.length && !unknown.length) return;
  const error = new SchemaMismatchError(
    [
      missing.length && `older than the code, missing ${missing.join(", ")} (run the migrations: npm run db:migrate)`,
      unknown.length && `newer than the code, has ${unknown.join(", ")} (deploy the code that added them)`,
    ]
      .filter(Boolean)
      .join("; "),
  );
  console.error(`[db] ${error.message}`);
  mismatch = { error, until: Date.now() + MISMATCH_RECHECK_MS };
  throw error;
}

let shared: Kysely<Database> | undefined;

/** The process-wide client of the functions (DATABASE_URL, pooled on Neon), created on first use. */
export function getDb(): Kysely<Database> {
  if (!shared) {
    const { url } = databaseConfig();
    if (!url) throw new DatabaseNotConfiguredError();
    const warning = poolerWarning();
    if (warning) console.warn(`[db] ${warning}`);
    shared = createDb(url, { checkSchema: true });
  }
  return shared;
}

/** Closes the process-wide client, if any (graceful shutdown, test teardown); getDb() opens a new one. */
export async function closeDb(): Promise<void> {
  const closing = shared;
  shared = undefined;
  mismatch = undefined;
  await closing?.destroy();
}
