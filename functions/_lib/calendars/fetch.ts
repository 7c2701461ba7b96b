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
// The other forms that carry an IPv4 address inside an IPv6 one are refused whole: IPv4-compatible
// (::a.b.c.d, ::/96, deprecated), IPv4-translated (::ffff:0:a.b.c.d), NAT64 (64:ff9b::/96 and the
// local-use 64:ff9b:1::/48), 6to4 (2002::/16) and Teredo (2001::/32, whose address is obfuscated).
// A calendar server is reached by none of them, and each could lead to a private IPv4 address.
for (const [net, prefix] of [
  ["::", 96],
  ["::ffff:0:0:0", 96],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["2002::", 16],
  ["2001::", 32],
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
  const family = isIP(address) === 6 ? "ipv6" : isIP(address) === 4 ? "ipv4" : null;
  if (!family) return false;
  // An IPv4-mapped IPv6 address (::ffff:a.b.c.d, also written ::ffff:7f00:1) is checked as the IPv4 address it is.
  const mapped = family === "ipv6" ? mappedIpv4(address) : null;
  if (mapped) return isFetchableAddress(mapped, allowLoopback);
  if (allowLoopback && loopback.check(address, family)) return true;
  return !blocked.check(address, family);
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (::ffff:0:0/96), in any spelling; else null. */
function mappedIpv4(address: string): string | null {
  let text = address.toLowerCase().replace(/%.*$/, "");
  // A dotted quad at the end is two groups.
  text = text.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_all, a, b, c, d) =>
    [(a << 8) | b, (c << 8) | d].map((n: number) => n.toString(16)).join(":"),
  );
  const [head, tail] = text.includes("::") ? text.split("::") : [text, null];
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = tail === null ? left : [...left, ...Array(8 - left.length - right.length).fill("0"), ...right];
  if (groups.length !== 8) return null;
  const n = groups.map((g) => parseInt(g || "0", 16));
  if (n.slice(0, 5).some(Boolean) || n[5] !== 0xffff) return null;
  return [n[6] >> 8, n[6] & 255, n[7] >> 8, n[7] & 255].join(".");
}

/** Whether a feed's credentials may go to `url`: only over https (plain http shows them to every hop). */
export function credentialsRefused(
  feed: { url: string; username?: string | null; password?: string | null },
  allowLoopback: boolean,
): string | null {
  if (!feed.username && !feed.password) return null;
  let url: URL;
  try {
    url = new URL(feed.url);
  } catch {
    return null; // the fetch reports the address itself
  }
  if (url.protocol !== "http:") return null;
  // The tests' own servers on loopback (CALENDAR_FETCH_ALLOW=loopback) speak plain http.
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (allowLoopback && isIP(host) && loopback.check(host, isIP(host) === 6 ? "ipv6" : "ipv4")) return null;
  return "a user name and password are sent only over https: use the https:// address";
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
  const insecure = credentialsRefused(request, request.allowLoopback);
  if (insecure) throw new FeedError(insecure);
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
