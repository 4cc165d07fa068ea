// The upgrade guard as a pure function: Origin, Host (DNS rebinding) and forwarded headers, on a
// loopback bind and on a LAN bind, with and without trusted proxies.
import type { IncomingHttpHeaders } from "node:http";
import { describe, expect, it } from "vitest";
import {
  createUpgradeGuard,
  type UpgradePolicyInput,
  upgradeRefusalResponse,
} from "./upgrade-guard.js";

function guard(policy: Partial<UpgradePolicyInput> = {}) {
  const { check, configIssues } = createUpgradeGuard({ listenHost: "127.0.0.1", ...policy });
  return {
    configIssues,
    check: (headers: IncomingHttpHeaders, peerAddress = "127.0.0.1") =>
      check({ peerAddress, headers }),
  };
}

describe("upgrade guard: Origin", () => {
  it("lets non-browser clients (no Origin) and the gateway's own origin in", () => {
    const g = guard();
    expect(g.check({ host: "127.0.0.1:18789" })).toMatchObject({ ok: true, isLoopback: true });
    for (const [host, origin] of [
      ["127.0.0.1:18789", "http://127.0.0.1:18789"],
      ["localhost:18789", "http://localhost:18789"],
      ["[::1]:18789", "http://[::1]:18789"],
      ["LOCALHOST:80", "http://localhost"],
    ]) {
      expect(g.check({ host, origin }), `${origin} on ${host}`).toMatchObject({ ok: true });
    }
  });

  it("refuses every other origin, including other loopback ports and opaque origins", () => {
    const g = guard();
    for (const origin of [
      "http://evil.example",
      "http://127.0.0.1:5173",
      "https://127.0.0.1:18789",
      "http://localhost:18789",
      "null",
      "file://",
      "chrome-extension://abc",
    ]) {
      const verdict = g.check({ host: "127.0.0.1:18789", origin });
      expect(verdict, origin).toMatchObject({ ok: false, status: 403 });
      if (!verdict.ok) expect(verdict.reason).toMatch(/^origin not allowed/);
    }
  });

  it("accepts gateway.controlUi.allowedOrigins and gateway.publicOrigin, '*' accepts all", () => {
    const g = guard({
      allowedOrigins: ["https://UI.example:443/", "bad origin"],
      publicOrigin: "https://gw.example",
    });
    expect(g.configIssues).toEqual([
      'gateway.controlUi.allowedOrigins: "bad origin" is not an http(s) origin; ignored',
    ]);
    expect(g.check({ host: "127.0.0.1:1", origin: "https://ui.example" }).ok).toBe(true);
    expect(g.check({ host: "127.0.0.1:1", origin: "https://gw.example" }).ok).toBe(true);
    expect(g.check({ host: "127.0.0.1:1", origin: "http://ui.example" }).ok).toBe(false);
    expect(
      guard({ allowedOrigins: ["*"] }).check({ host: "localhost", origin: "http://x.y" }).ok,
    ).toBe(true);
  });
});

describe("upgrade guard: Host", () => {
  it("answers only loopback names on a loopback bind (DNS rebinding is refused)", () => {
    const g = guard();
    for (const host of [
      "evil.example",
      "evil.example:18789",
      "192.168.1.5:18789",
      "0.0.0.0:18789",
    ]) {
      expect(g.check({ host }), host).toMatchObject({ ok: false, status: 403 });
      expect(g.check({ host, origin: `http://${host}` }), host).toMatchObject({ ok: false });
    }
    expect(g.check({ host: "app.localhost:18789" }).ok).toBe(true);
    expect(g.check({}).ok).toBe(false);
    expect(g.check({ host: "a b" })).toMatchObject({ ok: false, status: 400 });
    // A configured public name is this gateway's too.
    expect(guard({ publicOrigin: "https://gw.example" }).check({ host: "gw.example" }).ok).toBe(
      true,
    );
  });

  it("on a LAN bind lets browsers in by IP or this machine's name, not by a foreign name", () => {
    const g = guard({ listenHost: "0.0.0.0", machineNames: ["mybox", "mybox.local"] });
    expect(g.check({ host: "evil.example:18789" }).ok).toBe(true);
    expect(g.check({ host: "192.168.1.5:18789", origin: "http://192.168.1.5:18789" }).ok).toBe(
      true,
    );
    expect(g.check({ host: "mybox.local:18789", origin: "http://mybox.local:18789" }).ok).toBe(
      true,
    );
    const rebinding = g.check({ host: "evil.example:18789", origin: "http://evil.example:18789" });
    expect(rebinding).toMatchObject({ ok: false, status: 403 });
    expect(g.check({ host: "192.168.1.5:18789" }, "192.168.1.9")).toMatchObject({
      ok: true,
      isLoopback: false,
    });
  });
});

describe("upgrade guard: forwarded headers", () => {
  it("ignores them from an untrusted peer, which then is not local either", () => {
    const verdict = guard().check({ host: "127.0.0.1", "x-forwarded-for": "203.0.113.9" });
    expect(verdict).toMatchObject({ ok: true, clientAddress: "127.0.0.1", isLoopback: false });
    expect(verdict.notes[0]).toMatch(/^ignored x-forwarded-for from 127\.0\.0\.1/);
    const spoof = guard().check({ host: "127.0.0.1", "x-real-ip": "127.0.0.1" }, "198.51.100.2");
    expect(spoof).toMatchObject({ clientAddress: "198.51.100.2", isLoopback: false });
  });

  it("takes the client from a trusted proxy, never as local", () => {
    const g = guard({ trustedProxies: ["127.0.0.1", "10.0.0.0/8"] });
    const via = (headers: IncomingHttpHeaders) => g.check({ host: "127.0.0.1", ...headers });
    expect(via({ "x-forwarded-for": "203.0.113.9" })).toMatchObject({
      ok: true,
      clientAddress: "203.0.113.9",
      isLoopback: false,
      proxied: true,
      notes: [],
    });
    // The rightmost hop that is not a proxy; a spoofed left part does not matter.
    expect(via({ "x-forwarded-for": "127.0.0.1, 203.0.113.9, 10.1.2.3" })).toMatchObject({
      clientAddress: "203.0.113.9",
    });
    expect(via({ "x-forwarded-for": "127.0.0.1" })).toMatchObject({
      clientAddress: "127.0.0.1",
      isLoopback: false,
    });
    // X-Real-IP only with allowRealIpFallback.
    expect(via({ "x-real-ip": "203.0.113.4" })).toMatchObject({
      clientAddress: "127.0.0.1",
      isLoopback: false,
    });
    const realIp = guard({ trustedProxies: ["127.0.0.1"], allowRealIpFallback: true });
    expect(realIp.check({ host: "127.0.0.1", "x-real-ip": "203.0.113.4" })).toMatchObject({
      clientAddress: "203.0.113.4",
    });
    // No forwarded header: the proxy host itself, direct.
    expect(via({})).toMatchObject({ clientAddress: "127.0.0.1", isLoopback: true, proxied: false });
  });

  it("checks a proxied browser's origin against X-Forwarded-Host and the allowlist", () => {
    const g = guard({ trustedProxies: ["127.0.0.1"], allowedOrigins: ["https://gw.example"] });
    const headers = {
      host: "127.0.0.1:18789",
      "x-forwarded-for": "203.0.113.9",
      "x-forwarded-host": "gw.example",
      "x-forwarded-proto": "https",
    };
    expect(g.check({ ...headers, origin: "https://gw.example" }).ok).toBe(true);
    expect(g.check({ ...headers, origin: "https://evil.example" }).ok).toBe(false);
    // Without the allowlist a proxied browser's public name is unknown: refused.
    const bare = guard({ trustedProxies: ["127.0.0.1"] });
    expect(bare.check({ ...headers, origin: "https://gw.example" }).ok).toBe(false);
  });
});

describe("upgradeRefusalResponse", () => {
  it("is a complete HTTP response with the reason as body", () => {
    expect(upgradeRefusalResponse(403, "origin not allowed: x")).toBe(
      "HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain; charset=utf-8\r\n" +
        "Content-Length: 22\r\nConnection: close\r\n\r\norigin not allowed: x\n",
    );
  });
});
