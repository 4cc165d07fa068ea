// IP address helpers of the gateway's network checks: one canonical form per address (IPv4-mapped IPv6
// is IPv4, brackets and zone ids stripped), loopback detection, rate-limit buckets (all loopback is one
// bucket, IPv6 by /64) and matching against a list of IPs/CIDRs (gateway.trustedProxies). Pure.
import { BlockList, isIP, isIPv4 } from "node:net";

/** The canonical form of an IP address, or undefined when `raw` is not one. */
export function normalizeIp(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  let text = raw.trim().toLowerCase();
  if (text.startsWith("[") && text.endsWith("]")) text = text.slice(1, -1);
  const zone = text.indexOf("%");
  if (zone >= 0) text = text.slice(0, zone);
  const family = isIP(text);
  if (family === 4) return text;
  if (family !== 6) return undefined;
  const groups = expandIpv6(text);
  // ::ffff:a.b.c.d (IPv4-mapped) is the IPv4 address itself.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [hi, lo] = [groups[6]!, groups[7]!];
    return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  }
  return groups.map((g) => g.toString(16)).join(":");
}

/** The 8 16-bit groups of a valid IPv6 address (`::` expanded, an IPv4 tail converted). */
export function expandIpv6(ip: string): number[] {
  let text = ip;
  const lastColon = text.lastIndexOf(":");
  const last = text.slice(lastColon + 1);
  if (isIPv4(last)) {
    const [a, b, c, d] = last.split(".").map(Number) as [number, number, number, number];
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((g) => parseInt(g, 16)));
  const gap = text.indexOf("::");
  if (gap < 0) return parse(text);
  const left = parse(text.slice(0, gap));
  const right = parse(text.slice(gap + 2));
  const middle = new Array<number>(Math.max(0, 8 - left.length - right.length)).fill(0);
  return [...left, ...middle, ...right];
}

/** Whether a canonical address (see {@link normalizeIp}) is loopback: 127.0.0.0/8 or ::1. */
export function isLoopbackIp(ip: string | undefined): boolean {
  if (!ip) return false;
  if (isIPv4(ip)) return ip.startsWith("127.");
  return ip === "0:0:0:0:0:0:0:1";
}

/**
 * The failed-auth bucket of an address: every loopback address is one bucket (rotating 127.x source
 * addresses is no multiplier), IPv4 is per address, IPv6 per /64 (one host usually owns a whole /64).
 */
export function rateLimitBucket(address: string): string {
  const ip = normalizeIp(address);
  if (!ip) return `other:${address}`;
  if (isLoopbackIp(ip)) return "loopback";
  if (isIPv4(ip)) return ip;
  return `${ip.split(":").slice(0, 4).join(":")}::/64`;
}

/** A matcher over IPs and CIDRs; entries that are neither are reported in `invalid`. */
export interface IpMatcher {
  matches(address: string | undefined): boolean;
  readonly invalid: readonly string[];
}

/** Builds an {@link IpMatcher} from entries such as `10.0.0.1`, `10.0.0.0/8`, `fd00::/8`, `::1`. */
export function createIpMatcher(entries: readonly string[]): IpMatcher {
  const list = new BlockList();
  const invalid: string[] = [];
  for (const entry of entries) {
    const [addressPart, prefixPart, extra] = entry.trim().split("/");
    const ip = normalizeIp(addressPart);
    const family = ip && isIPv4(ip) ? "ipv4" : "ipv6";
    const max = family === "ipv4" ? 32 : 128;
    const prefix = prefixPart === undefined ? max : Number(prefixPart);
    if (!ip || extra !== undefined || !Number.isInteger(prefix) || prefix < 0 || prefix > max) {
      invalid.push(entry);
      continue;
    }
    if (prefix === max) list.addAddress(ip, family);
    else list.addSubnet(ip, prefix, family);
  }
  return {
    invalid,
    matches(address) {
      const ip = normalizeIp(address);
      if (!ip) return false;
      return list.check(ip, isIPv4(ip) ? "ipv4" : "ipv6");
    },
  };
}
