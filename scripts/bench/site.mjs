// What the API benchmarks (scripts/bench/api.mjs, scripts/bench/admin.mjs) share: `npm start` as a
// process of its own, its admin, its memory, and load with autocannon.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";

/** The admin the benchmarks create (ADMIN_USERNAME, ADMIN_PASSWORD) and sign in as. */
export const BENCH_ADMIN = { username: "bench-admin", password: "bench-password-long-enough" };

/**
 * Starts the site as `npm start` does (the same Node flags, read from package.json, then `nodeFlags`)
 * as its own process and resolves with it and its address once it prints that.
 */
export function startSite(root, env, { nodeFlags = [] } = {}) {
  const start = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).scripts.start;
  const flags = /^node((?:\s+--\S+)*)\s+scripts\/runtime\/start\.mjs$/
    .exec(start)?.[1]
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  if (!flags)
    throw new Error(`package.json's start script is not "node [--flags] scripts/runtime/start.mjs": ${start}`);
  const child = spawn(process.execPath, [...flags, ...nodeFlags, path.join(root, "scripts/runtime/start.mjs")], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  return untilReady(child, /Site ready: (http:\/\/\S+?)\/?\s/, "npm start");
}

/**
 * Resolves with { child, url } once the child prints `ready` (its first group is the URL); rejects
 * with what it printed if it exits first. What it prints after that is not kept.
 */
export function untilReady(child, ready, name) {
  let output = "";
  return new Promise((resolve, reject) => {
    const take = (chunk) => {
      output += chunk;
      const match = ready.exec(output);
      if (!match) return;
      child.stdout.off("data", take);
      child.stderr.off("data", take);
      // Still read (and dropped, unless a caller listens), so the child never blocks on a full pipe.
      child.stdout.resume();
      child.stderr.resume();
      output = "";
      resolve({ child, url: match[1] });
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    child.once("exit", (code) => reject(new Error(`${name} exited (${code}):\n${output}`)));
  });
}

/**
 * The bytes V8 has allocated in a process started with --trace-gc-nvp, as its collections report them
 * on its standard output (each one's `allocated=`: the bytes allocated since the one before). A
 * window's figure is off by at most the collection at each end: a young generation's worth.
 */
export function allocationCounter(stream) {
  const counter = { bytes: 0 };
  let rest = "";
  stream.on("data", (chunk) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop() ?? "";
    for (const line of lines) {
      const match = / allocated=(\d+)/.exec(line);
      if (match) counter.bytes += Number(match[1]);
    }
  });
  return counter;
}

/** Stops a site startSite started, and resolves once its process has exited. */
export function stopSite({ child }) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", resolve);
    child.kill("SIGTERM");
  });
}

/** Signs in as `account` (BENCH_ADMIN unless given); resolves with the session cookie (`name=value`). */
export async function signIn(url, account = BENCH_ADMIN) {
  const res = await fetch(`${url}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url },
    body: JSON.stringify(account),
  });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status}`);
  return res.headers.get("set-cookie").split(";")[0];
}

/** A process's resident memory in MB. */
export function rssMb(pid) {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]) / 1024;
}

/**
 * autocannon against one endpoint, with latency reported two ways. `p99` is over the requests sent on
 * connections the server had already accepted; the first request of each connection is reported on
 * its own (`firstMaxMs`). The difference matters under load: Node's server accepts one new connection
 * per turn of its event loop (strace shows one accept4 per turn, none answered EAGAIN), so when 50
 * connections open at once against a busy process, the last ones wait tens of turns before their first
 * request is even read, and autocannon counts that wait as the request's latency. Browsers and
 * Netlify's CDN keep their connections open; `p99All` is autocannon's own figure, over every request.
 * @param {import("autocannon").Options} options
 */
export async function load(options) {
  const seen = new Set();
  const latencies = [];
  let firstMaxMs = 0;
  let tooMany = 0;
  const instance = autocannon(options);
  instance.on("response", (client, status, _bytes, ms) => {
    if (status === 429) tooMany++;
    if (seen.has(client)) latencies.push(ms);
    else {
      seen.add(client);
      firstMaxMs = Math.max(firstMaxMs, ms);
    }
  });
  const result = await instance;
  return {
    rps: Math.round(result.requests.average),
    p50: Math.round(percentile(latencies, 50) ?? 0),
    p99: Math.round(percentile(latencies, 99) ?? 0),
    p99All: result.latency.p99,
    firstMaxMs: Math.round(firstMaxMs),
    requests: result.requests.total,
    errors: result.errors + result.timeouts + result.non2xx,
    /** Of the errors, the 429 answers (a limit doing its work, which some runs expect). */
    tooMany,
  };
}

/** The p-th percentile (nearest rank, p from 0 to 100) of `values`; undefined when there are none. */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export { machineReference } from "./machine.mjs";
