// `npm run bench:compression`: what `npm start`'s static files cost to compress, each once after a
// build (scripts/runtime/server.mjs keeps each file's compressed forms in memory until the next build).
// For every compressible file in dist/ (build it first): the time and bytes at the server's settings
// (COMPRESSION) and, beside them, at brotli's and gzip's highest levels. Prints the machine reference.
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import { COMPRESSION, isCompressible, typeOf } from "../runtime/server.mjs";
import { loadAverage, machineName, machineReference } from "./machine.mjs";

const DIST = path.resolve(process.argv.find((a) => a.startsWith("--dist="))?.slice(7) ?? "dist");

const settings = {
  [`server: brotli ${COMPRESSION.brotliQuality}`]: (b) =>
    brotliCompressSync(b, { params: { [zlib.BROTLI_PARAM_QUALITY]: COMPRESSION.brotliQuality } }),
  "brotli 11": (b) => brotliCompressSync(b, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }),
  [`server: gzip ${COMPRESSION.gzipLevel}`]: (b) => gzipSync(b, { level: COMPRESSION.gzipLevel }),
  "gzip 9": (b) => gzipSync(b, { level: 9 }),
};

const bodies = readdirSync(DIST, { recursive: true })
  .map((f) => path.join(DIST, f))
  .filter((f) => statSync(f).isFile() && isCompressible(typeOf(f), statSync(f).size))
  .map((f) => ({ file: path.relative(DIST, f), body: readFileSync(f) }));
if (!bodies.length) throw new Error(`no compressible file in ${DIST}: build the site first (npm run build)`);
const reference = await machineReference();
console.log(
  `${bodies.length} compressible files, ${(bodies.reduce((n, b) => n + b.body.length, 0) / 1024).toFixed(0)} KB, in ${DIST}`,
);
console.log(`machine: ${machineName()}, reference ${reference} req/s, load ${loadAverage().join(" ")}\n`);
const rows = [];
for (const [name, compress] of Object.entries(settings)) {
  let ms = 0;
  let bytes = 0;
  let slowest = { ms: 0, file: "" };
  for (const { file, body } of bodies) {
    const started = process.hrtime.bigint();
    bytes += compress(body).length;
    const took = Number(process.hrtime.bigint() - started) / 1e6;
    ms += took;
    if (took > slowest.ms) slowest = { ms: took, file };
  }
  const home = bodies.find((b) => b.file === "en/index.html");
  rows.push({
    setting: name,
    "all files, ms": Math.round(ms),
    "all files, KB": Math.round(bytes / 1024),
    "en/index.html, KB": home ? +(compress(home.body).length / 1024).toFixed(1) : "-",
    "slowest file, ms": `${slowest.ms.toFixed(0)} (${slowest.file})`,
  });
}
console.table(rows);
