import { CamelCasePlugin, Kysely, PostgresDialect, type PostgresPool } from "kysely";
import type pg from "pg";
import { databaseConfig } from "../src/config/server.ts";
import { DatabaseNotConfiguredError } from "./errors.ts";
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

/**
 * A Kysely client over a pooled connection; Neon's WebSocket driver for Neon hosts, `pg` otherwise.
 * The driver is loaded on the first query, so a cold start loads only the one it uses.
 */
export function createDb(connectionString: string): Kysely<Database> {
  const pool = async (): Promise<PostgresPool> => {
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
    return created;
  };
  return new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    plugins: [new CamelCasePlugin()],
  });
}

let shared: Kysely<Database> | undefined;

/** The process-wide client for DATABASE_URL, created on first use. */
export function getDb(): Kysely<Database> {
  if (!shared) {
    const { url } = databaseConfig();
    if (!url) throw new DatabaseNotConfiguredError();
    shared = createDb(url);
  }
  return shared;
}

/** Closes the process-wide client, if any (graceful shutdown, test teardown); getDb() opens a new one. */
export async function closeDb(): Promise<void> {
  const closing = shared;
  shared = undefined;
  await closing?.destroy();
}
