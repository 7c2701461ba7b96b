/**
 * What a database error means for an answer (503, 409 …), without loading any database driver: the
 * HTTP edge of every function imports this, including functions that never touch the database.
 */
/** Thrown by getDb() when DATABASE_URL is missing; functions answer 503 for it. */
export class DatabaseNotConfiguredError extends Error {
  constructor() {
    super(
      "DATABASE_URL is not set: point it at a PostgreSQL database " +
        "(postgres://user:password@host:5432/name) or start the site with `npm start`, " +
        "which serves an embedded database and sets it.",
    );
    this.name = "DatabaseNotConfiguredError";
  }
}

/**
 * Thrown by the functions' client when the database's schema is not the one this code was built
 * for (a migration missing, or one this code does not know): they answer 503 rather than run
 * queries against tables that do not match.
 */
export class SchemaMismatchError extends Error {
  constructor(detail: string) {
    super(`The database schema does not match this deploy's code: ${detail}`);
    this.name = "SchemaMismatchError";
  }
}

const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE", // a write to a socket whose server went away
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now (starting up, shutting down)
  "53300", // too_many_connections
]);

const UNAVAILABLE_MESSAGES = [
  "connection terminated", // pg: server closed the socket, or connectionTimeoutMillis elapsed
  "timeout exceeded when trying to connect", // pg: no pooled client freed up in time
  "is not queryable", // pg: a client reused after its connection failed
  "all attempts to open a websocket", // Neon: the WebSocket could not be opened
];

/** True when `error` means the database cannot be reached right now (answer 503, not 500). */
export function isDatabaseUnavailable(error: unknown): boolean {
  return someCause(error, (e) => {
    if (e instanceof DatabaseNotConfiguredError || e instanceof SchemaMismatchError) return true;
    // Neon's driver rejects with the WebSocket's ErrorEvent when the socket cannot open or drops.
    if (e instanceof Event && e.type === "error") return true;
    const code = typeof e.code === "string" ? e.code : "";
    // Class 08 is "connection exception" in PostgreSQL's SQLSTATE table.
    if (UNAVAILABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
    const message = typeof e.message === "string" ? e.message.toLowerCase() : "";
    return UNAVAILABLE_MESSAGES.some((m) => message.includes(m));
  });
}

/** True when `error` is a unique violation (23505), optionally of the named constraint or index. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  return someCause(error, (e) => e.code === "23505" && (!constraint || e.constraint === constraint));
}

type ErrorLike = { code?: unknown; message?: unknown; constraint?: unknown };

// Drivers wrap: Node's dual-stack connect throws an AggregateError whose `errors` hold the
// ECONNREFUSEDs, and libraries set `cause`. Look through both, a few levels deep.
function someCause(error: unknown, test: (e: ErrorLike) => boolean, depth = 0): boolean {
  if (depth > 4 || typeof error !== "object" || error === null) return false;
  const e = error as ErrorLike & { cause?: unknown; errors?: unknown };
  if (test(e)) return true;
  if (someCause(e.cause, test, depth + 1)) return true;
  return Array.isArray(e.errors) && e.errors.some((inner) => someCause(inner, test, depth + 1));
}
