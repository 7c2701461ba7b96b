/**
 * The part of GitHub's REST API the GitHub publisher calls, served over a real bare git repository
 * (git plumbing: cat-file, hash-object, read-tree/update-index/write-tree, commit-tree, update-ref),
 * so the publisher's commits are real commits that `git log` and `git show` read. Like GitHub, moving
 * a branch without force to a commit that does not descend from it answers 422.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export interface GithubServer {
  url: string;
  /** The bare repository. */
  dir: string;
  git(...args: string[]): string;
  /** Requests seen, as "METHOD /path". */
  requests: string[];
  /** Runs once, just before the next branch move is checked (another commit landing in between). */
  beforeNextRefUpdate: (() => void) | null;
  close(): Promise<void>;
}

export async function githubServer(
  source: string,
  { repository, token }: { repository: string; token: string },
): Promise<GithubServer> {
  const dir = mkdtempSync(path.join(tmpdir(), "github-bare-"));
  execFileSync("git", ["clone", "--quiet", "--bare", source, dir]);
  const git = (args: string[], input?: string, env: Record<string, string> = {}) =>
    execFileSync("git", args, { cwd: dir, input, encoding: "utf8", env: { ...process.env, ...env } }).trim();
  const requests: string[] = [];
  const prefix = `/repos/${repository}`;

  const api: GithubServer = {
    url: "", // set once the server listens on a free port
    dir,
    git: (...args: string[]) => git(args),
    requests,
    beforeNextRefUpdate: null,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    },
  };
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined;
    const url = new URL(req.url!, "http://x");
    requests.push(`${req.method} ${url.pathname}`);
    const send = (status: number, data: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(data));
    };
    if (req.headers.authorization !== `Bearer ${token}`) return send(401, { message: "Bad credentials" });
    if (!url.pathname.startsWith(prefix)) return send(404, { message: "Not Found" });
    const route = url.pathname.slice(prefix.length);
    try {
      let m: RegExpExecArray | null;
      if (req.method === "GET" && (m = /^\/git\/ref\/heads\/(.+)$/.exec(route)))
        return send(200, {
          ref: `refs/heads/${m[1]}`,
          object: { sha: git(["rev-parse", `refs/heads/${m[1]}`]), type: "commit" },
        });
      if (req.method === "GET" && (m = /^\/git\/commits\/([0-9a-f]{40})$/.exec(route))) {
        let tree: string;
        try {
          tree = git(["rev-parse", `${m[1]}^{tree}`]);
        } catch {
          return send(404, { message: "Not Found" });
        }
        const parents = git(["rev-list", "--parents", "-n", "1", m[1]]).split(" ").slice(1);
        return send(200, { sha: m[1], tree: { sha: tree }, parents: parents.map((sha) => ({ sha })) });
      }
      if (req.method === "GET" && (m = /^\/contents\/(.+)$/.exec(route))) {
        const ref = url.searchParams.get("ref") ?? "HEAD";
        let sha: string;
        try {
          sha = git(["rev-parse", `${ref}:${m[1]}`]);
        } catch {
          return send(404, { message: "Not Found" });
        }
        const content = execFileSync("git", ["cat-file", "blob", sha], { cwd: dir });
        return send(200, { type: "file", path: m[1], sha, encoding: "base64", content: content.toString("base64") });
      }
      if (req.method === "POST" && route === "/git/blobs") {
        const content =
          body.encoding === "base64" ? Buffer.from(body.content, "base64").toString("utf8") : body.content;
        return send(201, { sha: git(["hash-object", "-w", "--stdin"], content) });
      }
      if (req.method === "POST" && route === "/git/trees") {
        const index = path.join(dir, `index-${process.pid}-${Date.now()}`);
        const env = { GIT_INDEX_FILE: index };
        try {
          git(["read-tree", body.base_tree], undefined, env);
          for (const entry of body.tree)
            git(["update-index", "--add", "--cacheinfo", `${entry.mode},${entry.sha},${entry.path}`], undefined, env);
          return send(201, { sha: git(["write-tree"], undefined, env) });
        } finally {
          rmSync(index, { force: true });
        }
      }
      if (req.method === "POST" && route === "/git/commits") {
        const { name, email, date } = body.author;
        const sha = git(["commit-tree", body.tree, ...body.parents.flatMap((p: string) => ["-p", p])], body.message, {
          GIT_AUTHOR_NAME: name,
          GIT_AUTHOR_EMAIL: email,
          GIT_AUTHOR_DATE: date,
          GIT_COMMITTER_NAME: "GitHub",
          GIT_COMMITTER_EMAIL: "noreply@github.com",
        });
        return send(201, { sha });
      }
      if (req.method === "PATCH" && (m = /^\/git\/refs\/heads\/(.+)$/.exec(route))) {
        const ref = `refs/heads/${m[1]}`;
        const hook = api.beforeNextRefUpdate;
        api.beforeNextRefUpdate = null;
        hook?.();
        const current = git(["rev-parse", ref]);
        if (!body.force) {
          try {
            git(["merge-base", "--is-ancestor", current, body.sha]);
          } catch {
            return send(422, { message: "Update is not a fast forward" });
          }
        }
        git(["update-ref", ref, body.sha, current]);
        return send(200, { ref, object: { sha: body.sha, type: "commit" } });
      }
      return send(404, { message: "Not Found" });
    } catch (error) {
      return send(422, { message: String(error) });
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  api.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return api;
}
