/**
 * Expanding a feed where it cannot stop the server: in a worker thread (expand-worker.ts) with a
 * time limit and a memory limit. A feed's rules can make ical.js loop without end inside one step,
 * and a big feed is seconds of work; on the server's own thread either would hold every other
 * request (the pages, the booking) until it ended. Past the limit the worker is terminated and the
 * feed fails with a reason the admin reads, like a feed that cannot be fetched.
 *
 * Bundled (scripts/build/bundle-functions.mjs), the worker's code travels inside the function as the
 * string __CALENDAR_WORKER__, so no second file has to be found at run time; from the sources
 * (npm start, npm run dev, the tests) Node runs expand-worker.ts itself.
 */
import { Worker } from "node:worker_threads";
import type { ExpandOptions, Expansion } from "./expand.ts";
import { FeedError } from "./fetch.ts";

declare const __CALENDAR_WORKER__: string | undefined;

/** How long one feed's expansion may take, from the moment the worker has loaded its code. */
export const EXPAND_TIMEOUT_MS = 5_000;
/** How long the worker may take to load its code (ical.js), on a busy machine. */
const STARTUP_TIMEOUT_MS = 20_000;
/** The worker's heap: a 5 MB feed of 16,000 events needs about 150 MB. */
const WORKER_HEAP_MB = 384;

/** What the worker is given. */
export interface WorkerRequest extends Pick<ExpandOptions, "owner" | "maxSteps" | "maxIntervals"> {
  ics: string;
  /** The window, in ms since the epoch. */
  from: number;
  to: number;
  timeZone: string;
}
/** What the worker says. */
export type WorkerMessage =
  | { type: "started" }
  | { type: "series"; summary: string }
  | { type: "done"; result: Expansion }
  | { type: "error"; message: string };

function startWorker(request: WorkerRequest): Worker {
  const options = { workerData: request, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } };
  return typeof __CALENDAR_WORKER__ === "string"
    ? new Worker(__CALENDAR_WORKER__, { ...options, eval: true })
    : new Worker(new URL("./expand-worker.ts", import.meta.url), options);
}

/** The feed's expansion (expand.ts), worked out in a worker; FeedError when it fails or takes too long. */
export function expandInWorker(request: WorkerRequest, timeoutMs = EXPAND_TIMEOUT_MS): Promise<Expansion> {
  return new Promise((resolve, reject) => {
    let series = "";
    let settled = false;
    const worker = startWorker(request);
    const finish = (error: FeedError | null, result?: Expansion) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      if (error) reject(error);
      else resolve(result!);
    };
    let timer = setTimeout(() => finish(new FeedError("the calendar reader did not start")), STARTUP_TIMEOUT_MS);
    worker.on("message", (message: WorkerMessage) => {
      if (message.type === "started") {
        clearTimeout(timer);
        timer = setTimeout(() => {
          const where = series ? ` (stopped in the repeating event “${series}”)` : "";
          finish(new FeedError(`reading it took longer than ${timeoutMs / 1000} s${where}`));
        }, timeoutMs);
      } else if (message.type === "series") series = message.summary;
      else if (message.type === "done") finish(null, message.result);
      else finish(new FeedError(message.message));
    });
    worker.on("error", (error: NodeJS.ErrnoException) =>
      finish(
        new FeedError(
          error.code === "ERR_WORKER_OUT_OF_MEMORY"
            ? "reading it needs more memory than a feed may take"
            : "not a readable iCalendar file",
        ),
      ),
    );
    worker.on("exit", () => finish(new FeedError("not a readable iCalendar file")));
  });
}
