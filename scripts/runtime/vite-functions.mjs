// `npm run dev`: the functions in functions/ answer /api/* (and the posts some pages' forms make back to
// their own URL, such as the newsletter's confirm page) inside Astro's dev server, loaded through
// Vite so an edit to a function (or anything it imports) applies to the next request without a
// restart; unchanged modules stay loaded. Everything else is Astro's own live preview of src/.
import { loadFunctions } from "./functions-router.mjs";
import { callFunction, requestUrl } from "./server.mjs";

/** A Vite plugin for the dev server only. */
export function localFunctions(root = process.cwd()) {
  return {
    name: "bridgewise:local-functions",
    apply: "serve",
    configureServer(server) {
      server.middlewares.use(async (req, res, next) => {
        const url = requestUrl(req);
        const api = url.pathname === "/api" || url.pathname.startsWith("/api/");
        // Pages are Astro's; a function may take a page's form post (its config names the method).
        if (!api && (req.method === "GET" || req.method === "HEAD")) return next();
        try {
          const router = await loadFunctions(root, { load: (file) => server.ssrLoadModule(file) });
          const match = router.route(url.pathname, req.method);
          if (match) return await callFunction(match, req, res, url, () => {});
          if (!api) return next();
          res.statusCode = 404;
          res.setHeader("content-type", "application/json; charset=utf-8");
          res.end(JSON.stringify({ success: false, message: "Not found" }));
        } catch (error) {
          server.config.logger.error(`[api] ${req.method} ${req.url}: ${error instanceof Error ? error.stack : error}`);
          if (!res.headersSent) {
            res.statusCode = 500;
            res.setHeader("content-type", "application/json; charset=utf-8");
            res.end(JSON.stringify({ success: false, message: "Internal server error" }));
          }
        }
      });
    },
  };
}
