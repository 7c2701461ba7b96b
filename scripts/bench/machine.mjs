// The machine reference every benchmark prints, so that two runs on this shared machine (whose
// speed varies by a third from hour to hour, and several-fold under load) are compared by it.
import http from "node:http";
import { cpus } from "node:os";
import { readFileSync } from "node:fs";
import autocannon from "autocannon";

/** Requests per second of a bare Node HTTP server answering 25 KB to autocannon in the same process, for 3 s. */
export async function machineReference() {
  const body = Buffer.alloc(25_000, "a");
  const bare = http.createServer((_req, res) => res.end(body));
  await new Promise((resolve) => bare.listen(0, "127.0.0.1", resolve));
  const result = await autocannon({ url: `http://127.0.0.1:${bare.address().port}/`, connections: 50, duration: 3 });
  await new Promise((resolve) => bare.close(resolve));
  return Math.round(result.requests.average).toLocaleString("en");
}

/** The 1-, 5- and 15-minute load averages, as /proc/loadavg gives them. */
export function loadAverage() {
  return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).map(Number);
}

/** "2 × Intel(R) Xeon(R) Processor". */
export function machineName() {
  return `${cpus().length} × ${cpus()[0]?.model ?? "?"}`;
}
