import { spawn } from "node:child_process";
import { once } from "node:events";
import { PassThrough } from "node:stream";
import { describe, expect, test } from "vitest";
import { allocationCounter, untilReady } from "./site.mjs";

const node = (script: string, flags: string[] = []) =>
  spawn(process.execPath, [...flags, "-e", script], { stdio: ["ignore", "pipe", "pipe"] });

describe("allocationCounter: what a process allocates, from its --trace-gc-nvp lines", () => {
  test("adds up every collection's allocated=, lines split across chunks included", () => {
    const stream = new PassThrough();
    const counter = allocationCounter(stream);
    stream.write("[1:0x1]  10 ms: pause=0.1 gc=s allocated=1000 promoted=5\n[1:0x1]  20 ms: gc=s allo");
    expect(counter.bytes).toBe(1000);
    stream.write("cated=2500 promoted=0\nnot a gc line allocated_bytes=7\n");
    expect(counter.bytes).toBe(3500);
    stream.write("a last line without its end allocated=99");
    expect(counter.bytes).toBe(3500);
  });

  test("a real process that allocates 200 MB of garbage reports about that", async () => {
    const child = node("let keep; for (let i = 0; i < 200; i++) keep = new Array(131072).fill(i); globalThis.gc();", [
      "--trace-gc-nvp",
      "--expose-gc",
    ]);
    const counter = allocationCounter(child.stdout);
    await once(child, "exit");
    // 200 arrays of 131,072 small integers: 1 MB each (8-byte slots), 200 MB in all.
    expect(counter.bytes).toBeGreaterThan(190 * 2 ** 20);
    expect(counter.bytes).toBeLessThan(260 * 2 ** 20);
  });
});

describe("untilReady", () => {
  test("resolves with the address, then keeps draining what the process prints", async () => {
    const child = node(
      `console.log("Site ready: http://localhost:1234/ now"); process.stdout.write("x".repeat(4 * 2 ** 20) + "\\n");`,
    );
    const site = await untilReady(child, /Site ready: (http:\/\/\S+?)\/?\s/, "test site");
    expect(site.url).toBe("http://localhost:1234");
    // 4 MB after "ready", more than a pipe holds: the process ends only if it is still read.
    const [code] = await once(child, "exit");
    expect(code).toBe(0);
  });

  test("a process that exits first is a rejection with what it printed", async () => {
    const child = node(`console.error("port 1234 in use"); process.exit(3);`);
    await expect(untilReady(child, /Site ready: (\S+)/, "test site")).rejects.toThrow(
      /test site exited \(3\):\n.*port 1234 in use/s,
    );
  });
});
