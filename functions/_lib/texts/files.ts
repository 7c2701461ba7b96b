/**
 * How the site's text files are written on this machine (the local publisher, `npm start`): whole
 * or not at all, one save at a time.
 *
 * - writeFileAtomic: the new text goes to a temporary file beside the old one, is flushed to disk,
 *   then renamed over it. A reader sees the old file or the new one, never a half-written or empty
 *   one, and a crash at any moment leaves one of the two (the temporary file is cleared by the next
 *   write of that file).
 * - withFileLock: a lock file created with O_EXCL semantics (a hard link, so it is never seen
 *   empty) serialises saves across processes on one machine (`npm start` and a second server on
 *   the same working copy). A lock whose process has died, or older than `staleMs`, is taken over.
 *
 * Why a file and not a PostgreSQL advisory lock: the save path has no database (the files and git
 * are the store), and what must be serialised is this machine's working copy, which a lock in the
 * working copy's own git directory covers exactly, database or not.
 */
import { randomBytes } from "node:crypto";
import { link, open, readdir, readFile, rename, rm, stat, unlink } from "node:fs/promises";
import path from "node:path";

const tempName = (file: string) =>
  path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);

/** Writes `text` to `file` atomically (see above). `beforeRename` is for tests that crash in between. */
export async function writeFileAtomic(
  file: string,
  text: string,
  { beforeRename }: { beforeRename?: () => Promise<void> | void } = {},
): Promise<void> {
  await removeLeftovers(file);
  const mode = await stat(file).then(
    (s) => s.mode & 0o777,
    () => 0o644,
  );
  const temp = tempName(file);
  try {
    const handle = await open(temp, "wx", mode);
    try {
      await handle.writeFile(text, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    await beforeRename?.();
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  // The rename itself reaches the disk with the folder's entry.
  const folder = await open(path.dirname(file), "r").catch(() => null);
  await folder?.sync().catch(() => {});
  await folder?.close();
}

/** Temporary files a crashed write of `file` left behind (their process is gone). */
async function removeLeftovers(file: string) {
  const prefix = `.${path.basename(file)}.`;
  const names = await readdir(path.dirname(file)).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith(".tmp")) continue;
    const pid = Number(name.slice(prefix.length).split(".")[0]);
    if (pid !== process.pid && isAlive(pid)) continue;
    if (pid === process.pid) continue; // this process's own writes in flight
    await rm(path.join(path.dirname(file), name), { force: true });
  }
}

const isAlive = (pid: number) => {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
};

/** The lock was held by a live process for longer than the caller would wait. */
export class LockTimeoutError extends Error {
  constructor(lockPath: string) {
    super(`Another save holds ${lockPath}`);
  }
}

interface LockOptions {
  /** How long to wait for another holder before giving up (LockTimeoutError). */
  waitMs?: number;
  /** A lock older than this is taken over even if its process still runs (a hung or reused pid). */
  staleMs?: number;
}

/** Runs `work` holding the lock file `lockPath` (see above); the lock is released however `work` ends. */
export async function withFileLock<T>(
  lockPath: string,
  work: () => Promise<T>,
  { waitMs = 30_000, staleMs = 120_000 }: LockOptions = {},
): Promise<T> {
  const token = randomBytes(12).toString("hex");
  const started = Date.now();
  for (let delay = 10; ; delay = Math.min(delay * 2, 200)) {
    if (await tryLock(lockPath, token)) break;
    if (await breakIfStale(lockPath, staleMs)) continue;
    if (Date.now() - started > waitMs) throw new LockTimeoutError(lockPath);
    await new Promise((resolve) => setTimeout(resolve, delay + Math.random() * delay));
  }
  try {
    return await work();
  } finally {
    // Only our own lock: one taken over meanwhile as stale belongs to its new holder.
    if ((await readLock(lockPath))?.token === token) await rm(lockPath, { force: true });
  }
}

async function tryLock(lockPath: string, token: string): Promise<boolean> {
  const temp = tempName(lockPath);
  const handle = await open(temp, "wx", 0o600);
  try {
    await handle.writeFile(JSON.stringify({ pid: process.pid, token, at: Date.now() }));
  } finally {
    await handle.close();
  }
  try {
    await link(temp, lockPath); // fails when the lock exists: the lock file appears whole or not at all
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    await unlink(temp).catch(() => {});
  }
}

async function readLock(lockPath: string): Promise<{ pid: number; token: string; at: number } | null | undefined> {
  let text: string;
  try {
    text = await readFile(lockPath, "utf8");
  } catch {
    return undefined; // gone
  }
  try {
    const lock = JSON.parse(text) as { pid?: unknown; token?: unknown; at?: unknown };
    if (typeof lock.pid === "number" && typeof lock.token === "string" && typeof lock.at === "number")
      return { pid: lock.pid, token: lock.token, at: lock.at };
  } catch {
    // garbled: stale
  }
  return null;
}

/** Removes a lock whose holder died (or that is garbled or too old); true when the caller may try again at once. */
async function breakIfStale(lockPath: string, staleMs: number): Promise<boolean> {
  const lock = await readLock(lockPath);
  if (lock === undefined) return true;
  if (lock && isAlive(lock.pid) && Date.now() - lock.at < staleMs) return false;
  // Moved aside first, then checked: when another process took the stale lock over meanwhile, its new lock is put back.
  const aside = `${lockPath}.${randomBytes(6).toString("hex")}.stale`;
  try {
    await rename(lockPath, aside);
  } catch {
    return true;
  }
  const moved = await readLock(aside);
  if (lock && moved && moved.token !== lock.token) await link(aside, lockPath).catch(() => {});
  await rm(aside, { force: true });
  return true;
}
