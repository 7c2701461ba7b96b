/**
 * The worker that expands one feed (functions/_lib/calendars/sandbox.ts starts it): the feed's text
 * and window come in as workerData, one "done" or "error" message goes out, and a "series" message
 * names each repeating event as its walk starts, so a walk that never ends can be named.
 */
import { parentPort, workerData } from "node:worker_threads";
import { ExpandError, expandCalendar } from "./expand.ts";
import type { WorkerRequest, WorkerMessage } from "./sandbox.ts";

const request = workerData as WorkerRequest;
const post = (message: WorkerMessage) => parentPort?.postMessage(message);
post({ type: "started" });
try {
  const result = expandCalendar(request.ics, new Date(request.from), new Date(request.to), request.timeZone, {
    owner: request.owner,
    maxSteps: request.maxSteps,
    maxIntervals: request.maxIntervals,
    onSeries: (summary) => post({ type: "series", summary: summary.replace(/[\p{Cc}\p{Cf}]+/gu, " ").slice(0, 80) }),
  });
  post({ type: "done", result });
} catch (error) {
  post({ type: "error", message: error instanceof ExpandError ? error.message : "not a readable iCalendar file" });
}
