/**
 * The copy check inside Astro:
 * - every `astro build` (also the ones `npm start` runs) refuses to start when the copy has errors,
 *   with the same messages as `npm run check:copy`, before it touches dist/;
 * - a JSON syntax mistake in src/ is reported in plain words, with file and line, instead of the
 *   bundler's parser message (in builds, in the dev server and in unit tests);
 * - `astro dev` serves the editors' preview at /en/_preview/ and prints the check after each change
 *   to a locale or content file. The preview is never part of a production build.
 */
import type { AstroIntegration } from "astro";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Plugin, ViteDevServer } from "vite";
import { checkCopy } from "./copy-check.ts";
import { formatReport } from "./format.ts";
import { JsonSyntaxError, parseJsonSource } from "#functions/_lib/texts/json-source.ts";

/** Vite plugin: a JSON file under src/ with a syntax mistake fails with an editor's message. */
export function friendlyJson(root: string): Plugin {
  return {
    name: "copy-check:friendly-json",
    enforce: "pre",
    transform(code, id) {
      const file = id.split("?")[0];
      if (!file.endsWith(".json") || !file.startsWith(path.join(root, "src"))) return null;
      try {
        parseJsonSource(code);
      } catch (error) {
        if (!(error instanceof JsonSyntaxError)) throw error;
        const rel = path.relative(root, file);
        this.error({
          message: `${rel}, line ${error.line}: ${error.message}`,
          id: file,
          loc: { file, line: error.line, column: error.column - 1 },
        });
      }
      return null;
    },
  };
}

/** Dev only: the preview's iframes show the site's own pages, which otherwise refuse to be framed. */
function allowFramingByPreview(): Plugin {
  return {
    name: "copy-check:preview-frames",
    enforce: "pre",
    apply: "serve",
    configureServer(server: ViteDevServer) {
      server.middlewares.use((req, res, next) => {
        const referer = req.headers.referer ?? "";
        const fromPreview = /\/_preview\/?/.test(new URL(referer || "http://x/").pathname);
        if (!fromPreview || req.headers["sec-fetch-dest"] !== "iframe") return next();
        const setHeader = res.setHeader.bind(res);
        res.setHeader = (name: string, value: number | string | readonly string[]) => {
          const lower = name.toLowerCase();
          if (lower === "x-frame-options") return res;
          if (lower === "content-security-policy")
            value = String(value).replace(/frame-ancestors[^;]*/i, "frame-ancestors 'self'");
          return setHeader(name, value);
        };
        next();
      });
    },
  };
}

export default function copyCheck(): AstroIntegration {
  let root = process.cwd();
  return {
    name: "copy-check",
    hooks: {
      "astro:config:setup": ({ command, config, updateConfig, injectRoute, logger }) => {
        root = fileURLToPath(config.root);
        updateConfig({ vite: { plugins: [friendlyJson(root), allowFramingByPreview()] } });
        if (command === "build") {
          const report = checkCopy({ root });
          if (report.problems.some((p) => p.severity === "error")) {
            console.error(`\n${formatReport(report, { root, color: process.stderr.isTTY, errorsOnly: true })}`);
            console.error("Nothing was built; dist/ is unchanged.\n");
            // Astro would add a stack trace to any error thrown here; the report above says it all.
            process.exit(1);
          }
        }
        if (command === "dev") {
          // Under /en/ (the preview's own language): Astro's i18n routing answers 404 to unprefixed paths.
          injectRoute({ pattern: "/en/_preview", entrypoint: "./tools/editor/KeysPreview.astro" });
          injectRoute({ pattern: "/en/_preview/pages", entrypoint: "./tools/editor/PagesPreview.astro" });
          logger.info("Editors' preview: /en/_preview/ (every text in three languages) and /en/_preview/pages");
        }
      },
      "astro:server:setup": ({ server, logger }) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const run = () => {
          const report = checkCopy({ root });
          const text = formatReport(report, { root, color: process.stdout.isTTY });
          if (report.problems.length) logger.warn(`\n${text}`);
          else logger.info(text.split("\n").at(-1)!);
        };
        const watched = /\/src\/(?:i18n\/[^/]+\.json|i18n\/locales\/[^/]+\.json|data\/[^/]+\.json)$/;
        server.watcher.on("change", (file) => {
          if (!watched.test(file.split(path.sep).join("/"))) return;
          clearTimeout(timer);
          timer = setTimeout(run, 150);
        });
        run();
      },
    },
  };
}
