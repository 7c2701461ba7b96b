/**
 * Fetching a calendar feed without letting its address reach the server's own network: only http(s),
 * the host name resolved here and every address checked (private, loopback, link-local, carrier-grade
 * NAT, multicast and reserved ranges are refused), and the request pinned to the checked address so
 * a second DNS answer (rebinding) cannot redirect it. Redirects are not followed; a size limit and a
 * timeout bound what one feed can cost.
 */
import { lookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { BlockList, isIP, type LookupFunction } from "node:net";

export const FEED_MAX_BYTES = 5 * 1024 * 1024;
export const FEED_TIMEOUT_MS = 10_000;

const blocked = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 3],
] as const)
  blocked.addSubnet(net, prefix, "ipv4");
// No ::ffff:0:0/96 rule: BlockList checks an IPv4 address against IPv6 rules as IPv4-mapped, so that
// rule would refuse every IPv4 address; isFetchableAddress unwraps a mapped address instead.
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const)
  blocked.addSubnet(net, prefix, "ipv6");

const loopback = new BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("::1", "ipv6");

export class FeedError extends Error {}

/** Whether `address` may be fetched: public, or loopback when the test-only switch allows it. */
export function isFetchableAddress(address: string, allowLoopback: boolean): boolean {
  const family = isIP(address) === 6 ? "ipv6" : "ipv4";
  // An IPv4-mapped IPv6 address is checked as the IPv4 address it is.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isFetchableAddress(mapped[1], allowLoopback);
  if (allowLoopback && loopback.check(address, family)) return true;
  return !blocked.check(address, family);
}

export interface FeedRequest {
  url: string;
  username?: string | null;
  password?: string | null;
  allowLoopback: boolean;
  maxBytes?: number;
  timeoutMs?: number;
}

/** The feed's text; throws FeedError with a short reason the admin can read. */
export async function fetchFeed(request: FeedRequest): Promise<string> {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    throw new FeedError("not a valid address");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new FeedError("only http and https addresses");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: { address: string; family: number }[];
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true });
  } catch {
    throw new FeedError("the host name does not resolve");
  }
  if (!addresses.length || !addresses.every((a) => isFetchableAddress(a.address, request.allowLoopback)))
    throw new FeedError("the address is in a private or local network");
  const pinned = addresses[0];
  const pin: LookupFunction = (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as (e: null, a: typeof addresses) => void)(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
  const maxBytes = request.maxBytes ?? FEED_MAX_BYTES;
  const timeoutMs = request.timeoutMs ?? FEED_TIMEOUT_MS;
  const headers: Record<string, string> = { accept: "text/calendar, */*;q=0.5", "user-agent": "calendar-busy-times" };
  if (request.username || request.password)
    headers.authorization = `Basic ${Buffer.from(`${request.username ?? ""}:${request.password ?? ""}`).toString("base64")}`;
  const client = url.protocol === "https:" ? https : http;

  return new Promise<string>((resolve, reject) => {
    const fail = (message: string) => {
      req.destroy();
      reject(new FeedError(message));
    };
    const timer = setTimeout(() => fail(`no complete answer within ${timeoutMs / 1000} s`), timeoutMs);
    const req = client.request(
      url,
      { method: "GET", headers, lookup: pin, servername: isIP(host) ? undefined : host },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status !== 200) {
          res.resume();
          clearTimeout(timer);
          return fail(
            status === 401 || status === 403 ? `refused (HTTP ${status}): check the credentials` : `HTTP ${status}`,
          );
        }
        const declared = Number(res.headers["content-length"] ?? 0);
        if (declared > maxBytes) {
          clearTimeout(timer);
          return fail(`larger than ${Math.round(maxBytes / 1024)} KB`);
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            clearTimeout(timer);
            fail(`larger than ${Math.round(maxBytes / 1024)} KB`);
          } else chunks.push(chunk);
        });
        res.on("end", () => {
          clearTimeout(timer);
          resolve(Buffer.concat(chunks).toString("utf8"));
        });
        res.on("error", () => {
          clearTimeout(timer);
          fail("the connection broke off");
        });
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(new FeedError(error.code === "ECONNREFUSED" ? "connection refused" : "the connection failed"));
    });
    req.end();
  });
}
