// IP helpers: canonical forms, loopback in every spelling, rate-limit buckets, IP/CIDR matching.
import { describe, expect, it } from "vitest";
import { isLoopbackAddress } from "../presence.js";
import {
  createIpMatcher,
  expandIpv6,
  isLoopbackIp,
  normalizeIp,
  rateLimitBucket,
} from "./ip-address.js";

describe("normalizeIp", () => {
  it("maps IPv4-mapped IPv6 to IPv4 and expands IPv6", () => {
    expect(normalizeIp("::ffff:127.0.0.9")).toBe("127.0.0.9");
    expect(normalizeIp("::FFFF:7f00:1")).toBe("127.0.0.1");
    expect(normalizeIp("[::1]")).toBe("0:0:0:0:0:0:0:1");
    expect(normalizeIp("fe80::1%eth0")).toBe("fe80:0:0:0:0:0:0:1");
    expect(normalizeIp(" 10.0.0.1 ")).toBe("10.0.0.1");
    expect(normalizeIp("evil.example")).toBeUndefined();
    expect(normalizeIp("")).toBeUndefined();
    expect(expandIpv6("2001:db8::1.2.3.4")).toEqual([0x2001, 0xdb8, 0, 0, 0, 0, 0x102, 0x304]);
  });
});

describe("loopback", () => {
  it("is 127.0.0.0/8 and ::1 in every spelling, and nothing else", () => {
    for (const ip of ["127.0.0.1", "127.255.3.4", "::1", "0:0:0:0:0:0:0:1", "::ffff:127.0.0.2"]) {
      expect(isLoopbackAddress(ip)).toBe(true);
    }
    for (const ip of ["128.0.0.1", "::2", "10.127.0.1", "::ffff:10.0.0.1", "", undefined]) {
      expect(isLoopbackAddress(ip)).toBe(false);
    }
    expect(isLoopbackAddress("localhost")).toBe(true);
    expect(isLoopbackIp(normalizeIp("::ffff:127.1.2.3"))).toBe(true);
  });
});

describe("rateLimitBucket", () => {
  it("puts all of loopback in one bucket, IPv4 per address and IPv6 per /64", () => {
    const loopback = ["127.0.0.1", "127.0.0.50", "::1", "::ffff:127.9.9.9"].map(rateLimitBucket);
    expect(new Set(loopback)).toEqual(new Set(["loopback"]));
    expect(rateLimitBucket("203.0.113.7")).not.toBe(rateLimitBucket("203.0.113.8"));
    expect(rateLimitBucket("::ffff:203.0.113.7")).toBe(rateLimitBucket("203.0.113.7"));
    expect(rateLimitBucket("2001:db8:1:2::a")).toBe(rateLimitBucket("2001:db8:1:2:ffff::b"));
    expect(rateLimitBucket("2001:db8:1:2::a")).not.toBe(rateLimitBucket("2001:db8:1:3::a"));
  });
});

describe("createIpMatcher", () => {
  it("matches IPs and CIDRs of both families and reports bad entries", () => {
    const matcher = createIpMatcher([
      "10.0.0.0/8",
      "192.0.2.7",
      "fd00::/8",
      "::1",
      "nope",
      "1.2.3.4/33",
    ]);
    expect(matcher.invalid).toEqual(["nope", "1.2.3.4/33"]);
    expect(matcher.matches("10.20.30.40")).toBe(true);
    expect(matcher.matches("::ffff:10.1.1.1")).toBe(true);
    expect(matcher.matches("192.0.2.7")).toBe(true);
    expect(matcher.matches("192.0.2.8")).toBe(false);
    expect(matcher.matches("fd12:3456::1")).toBe(true);
    expect(matcher.matches("[::1]")).toBe(true);
    expect(matcher.matches("11.0.0.1")).toBe(false);
    expect(matcher.matches("garbage")).toBe(false);
    expect(createIpMatcher([]).matches("127.0.0.1")).toBe(false);
  });
});
