// The WebSocket upgrade guard (pure): who may open a socket, and who the client is.
// - Forwarded headers (X-Forwarded-For, X-Real-IP, Forwarded, X-Forwarded-Host/-Proto) count only when
//   the socket peer is in gateway.trustedProxies; the client address is then the rightmost untrusted
//   X-Forwarded-For hop (X-Real-IP only with gateway.allowRealIpFallback). A request that carries any
//   of them is never local: from a trusted proxy it is a proxied client, from anyone else the headers
//   are ignored (noted for the log) and the proxy in front is assumed, so no loopback privileges.
// - Host (rebinding): on a loopback bind only loopback names/IPs (localhost, *.localhost, 127.x, [::1])
//   or configured names pass; on other binds a browser's Host must be an IP, a loopback name, this
//   machine's name or a configured name.
// - Origin (browsers): the gateway's own origin (the Host the request came to) or one of
//   gateway.controlUi.allowedOrigins / gateway.publicOrigin; anything else is refused, in every auth
//   mode. No Origin (the ws client, the CLI) is not a browser and is not checked.
import type { IncomingHttpHeaders } from "node:http";
import { isIP } from "node:net";
import { createIpMatcher, type IpMatcher, isLoopbackIp, normalizeIp } from "../net/ip-address.js";

/** The settings the guard applies (from the gateway's listen address and `gateway.*`). */
export interface UpgradePolicyInput {
  /** The address the gateway listens on (its bind). */
  listenHost: string;
  /** `gateway.controlUi.allowedOrigins` (`"*"` allows every origin). */
  allowedOrigins?: readonly string[];
  /** `gateway.publicOrigin`. */
  publicOrigin?: string;
  /** `gateway.trustedProxies`: IPs or CIDRs. */
  trustedProxies?: readonly string[];
  /** `gateway.allowRealIpFallback`: use X-Real-IP from a trusted proxy without X-Forwarded-For. */
  allowRealIpFallback?: boolean;
  /** This machine's names, accepted as Host on a non-loopback bind (e.g. `os.hostname()`). */
  machineNames?: readonly string[];
}

/** One upgrade request as the guard sees it. */
export interface UpgradeRequest {
  /** The TCP peer (`req.socket.remoteAddress`). */
  peerAddress: string;
  headers: IncomingHttpHeaders;
}

/** An accepted upgrade: who the client is; `notes` are worth a log line. */
export interface UpgradeAccepted {
  ok: true;
  /** The client's address: the peer, or the forwarded client of a trusted proxy. */
  clientAddress: string;
  /** Direct from a loopback peer with no forwarded headers: the only case treated as local. */
  isLoopback: boolean;
  /** Forwarded by a trusted proxy. */
  proxied: boolean;
  notes: string[];
}

/** A refused upgrade: answer `status` with `reason` and close. */
export interface UpgradeRefused {
  ok: false;
  status: 400 | 403;
  reason: string;
  notes: string[];
}

/** A prepared guard; `configIssues` lists config entries it could not use (log them once). */
export interface UpgradeGuard {
  check(request: UpgradeRequest): UpgradeAccepted | UpgradeRefused;
  readonly configIssues: readonly string[];
}

const FORWARD_HEADERS = [
  "x-forwarded-for",
  "x-real-ip",
  "forwarded",
  "x-forwarded-host",
  "x-forwarded-proto",
] as const;

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  const text = Array.isArray(value) ? value.join(",") : value;
  return text === undefined || text.trim() === "" ? undefined : text.trim();
}

/** A host name without brackets or a trailing dot, lowercased. */
function bareHostname(hostname: string): string {
  const lower = hostname.toLowerCase().replace(/\.$/, "");
  return lower.startsWith("[") && lower.endsWith("]") ? lower.slice(1, -1) : lower;
}

/** Whether a Host/Origin host name always means this machine's loopback. */
export function isLoopbackHostname(hostname: string): boolean {
  const bare = bareHostname(hostname);
  if (bare === "localhost" || bare.endsWith(".localhost")) return true;
  return isLoopbackIp(normalizeIp(bare));
}

/** `scheme://host[:port]` of an http(s) origin (default port dropped), or undefined. */
function canonicalOrigin(text: string): string | undefined {
  try {
    const url = new URL(text.trim());
    if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
    return `${url.protocol}//${url.host}`;
  } catch {
    return undefined;
  }
}

/** `host[:port]` of a Host header in `scheme` (so a default port compares equal), or undefined. */
function canonicalHost(host: string, scheme: string): URL | undefined {
  if (/[/?#@\s]/.test(host)) return undefined;
  try {
    return new URL(`${scheme}//${host}`);
  } catch {
    return undefined;
  }
}

/** The client behind a trusted proxy: the rightmost X-Forwarded-For hop that is not a proxy. */
function forwardedClient(params: {
  headers: IncomingHttpHeaders;
  trusted: IpMatcher;
  allowRealIp: boolean;
}): string | undefined {
  const hops = (header(params.headers, "x-forwarded-for") ?? "")
    .split(",")
    .map((hop) => hop.trim())
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    if (!normalizeIp(hop)) return undefined;
    if (!params.trusted.matches(hop) || i === 0) return hop;
  }
  const realIp = params.allowRealIp ? header(params.headers, "x-real-ip") : undefined;
  return realIp && normalizeIp(realIp) ? realIp : undefined;
}

/** Prepares the guard for one config (build it again when the config changes). */
export function createUpgradeGuard(input: UpgradePolicyInput): UpgradeGuard {
  const configIssues: string[] = [];
  const trusted = createIpMatcher(input.trustedProxies ?? []);
  for (const entry of trusted.invalid) {
    configIssues.push(`gateway.trustedProxies: "${entry}" is not an IP address or CIDR; ignored`);
  }
  const allowAny = (input.allowedOrigins ?? []).some((entry) => entry.trim() === "*");
  const origins = new Set<string>();
  const configured = [
    ...(input.allowedOrigins ?? []).map((entry) => ({
      entry,
      key: "gateway.controlUi.allowedOrigins",
    })),
    ...(input.publicOrigin ? [{ entry: input.publicOrigin, key: "gateway.publicOrigin" }] : []),
  ];
  for (const { entry, key } of configured) {
    if (entry.trim() === "*") continue;
    const origin = canonicalOrigin(entry);
    if (origin) origins.add(origin);
    else configIssues.push(`${key}: "${entry}" is not an http(s) origin; ignored`);
  }
  const configuredHostnames = new Set([...origins].map((origin) => new URL(origin).hostname));
  const machineNames = new Set(
    (input.machineNames ?? []).filter(Boolean).map((name) => bareHostname(name)),
  );
  const loopbackBind = isLoopbackHostname(input.listenHost);

  /** Whether a Host name may reach this gateway (the DNS-rebinding check). */
  const hostAllowed = (hostname: string): boolean => {
    const bare = bareHostname(hostname);
    if (isLoopbackHostname(bare) || configuredHostnames.has(bare)) return true;
    if (loopbackBind) return false;
    return isIP(bare) !== 0 || machineNames.has(bare);
  };

  const check = (request: UpgradeRequest): UpgradeAccepted | UpgradeRefused => {
    const { headers } = request;
    const notes: string[] = [];
    const refuse = (status: 400 | 403, reason: string): UpgradeRefused => ({
      ok: false,
      status,
      reason,
      notes,
    });
    const forwarded = FORWARD_HEADERS.filter((name) => header(headers, name) !== undefined);
    const viaProxy = forwarded.length > 0 && trusted.matches(request.peerAddress);
    if (forwarded.length > 0 && !viaProxy) {
      notes.push(
        `ignored ${forwarded.join(", ")} from ${request.peerAddress}: not in gateway.trustedProxies`,
      );
    }
    const clientAddress =
      (viaProxy
        ? forwardedClient({ headers, trusted, allowRealIp: input.allowRealIpFallback === true })
        : undefined) ?? request.peerAddress;
    if (viaProxy && clientAddress === request.peerAddress) {
      notes.push(`trusted proxy ${request.peerAddress} sent no usable client address`);
    }
    const isLoopback = forwarded.length === 0 && isLoopbackIp(normalizeIp(request.peerAddress));

    const forwardedHost = viaProxy
      ? header(headers, "x-forwarded-host")?.split(",")[0]?.trim()
      : undefined;
    const hostHeader = forwardedHost ?? header(headers, "host");
    if (!hostHeader) return refuse(400, "missing Host header");
    const origin = header(headers, "origin");
    const scheme =
      viaProxy && /^https$/i.test(header(headers, "x-forwarded-proto") ?? "") ? "https:" : "http:";
    const host = canonicalHost(hostHeader, scheme);
    if (!host) return refuse(400, `invalid Host header: ${hostHeader.slice(0, 100)}`);
    // Rebinding: a loopback bind answers loopback names only; other binds check browsers' Host.
    const browser = origin !== undefined;
    if ((loopbackBind && !viaProxy) || browser) {
      if (!hostAllowed(host.hostname)) {
        const where = loopbackBind
          ? "the gateway is bound to loopback"
          : "not a name of this gateway";
        return refuse(
          403,
          `host not allowed: ${host.host} (${where}; add its origin to gateway.controlUi.allowedOrigins)`,
        );
      }
    }
    if (browser) {
      const asked = canonicalOrigin(origin);
      if (!asked) return refuse(403, `origin not allowed: ${origin.slice(0, 100)}`);
      const own = canonicalOrigin(`${scheme}//${hostHeader}`);
      if (!(allowAny || origins.has(asked) || asked === own)) {
        return refuse(
          403,
          `origin not allowed: ${asked} (only the gateway's own origin or gateway.controlUi.allowedOrigins)`,
        );
      }
    }
    return { ok: true, clientAddress, isLoopback, proxied: viaProxy, notes };
  };
  return { check, configIssues };
}

/** The raw HTTP response that refuses an upgrade (the socket is closed after it). */
export function upgradeRefusalResponse(status: 400 | 403 | 503, reason: string): string {
  const text = { 400: "Bad Request", 403: "Forbidden", 503: "Service Unavailable" }[status];
  const body = `${reason}\n`;
  return (
    `HTTP/1.1 ${status} ${text}\r\nContent-Type: text/plain; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}
