// `npm start`: build if needed, prepare the database, then serve the site and API on http://localhost:${PORT:-8888}.
import { buildIfNeeded } from "./lib/build-if-needed.mjs";
import { prepareRuntime } from "./lib/runtime.mjs";
import { startServer } from "./lib/server.mjs";
import { serverEnv } from "#server/config.ts";

try {
  const { PORT: port, HOST: host } = serverEnv();
  buildIfNeeded();
  // A content editor's save commits to this working copy; the site is rebuilt and served after it.
  process.env.CONTENT_REBUILD ??= "on";
  const runtime = await prepareRuntime();
  const server = await startServer({ port, host });
  console.log(`\n  Site ready: ${server.url}/\n  (Ctrl+C to stop)\n`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await server.close();
    await runtime.close();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
} catch (error) {
  console.error(`Could not start: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
