import { describe, expect, it } from "vitest";
import { findTailnetAddress, isTailnetIPv4 } from "./tailnet.js";

const iface = (address: string, family: "IPv4" | "IPv6" = "IPv4", internal = false) => ({
  address,
  family,
  internal,
  netmask: "",
  mac: "00:00:00:00:00:00",
  cidr: null,
  ...(family === "IPv6" ? { scopeid: 0 } : {}),
});

describe("tailnet address", () => {
  it("recognises the 100.64.0.0/10 range and nothing around it", () => {
    expect(isTailnetIPv4("100.64.0.1")).toBe(true);
    expect(isTailnetIPv4("100.127.255.254")).toBe(true);
    expect(isTailnetIPv4("100.63.255.255")).toBe(false);
    expect(isTailnetIPv4("100.128.0.1")).toBe(false);
    expect(isTailnetIPv4("10.0.0.1")).toBe(false);
    expect(isTailnetIPv4("100.64.x.1")).toBe(false);
  });

  it("picks the tailscale interface's IPv4 address, or none", () => {
    const table = {
      lo: [iface("127.0.0.1", "IPv4", true)],
      eth0: [iface("192.168.1.20")],
      tailscale0: [iface("fd7a:115c:a1e0::1", "IPv6"), iface("100.101.102.103")],
    };
    expect(findTailnetAddress(table as never)).toBe("100.101.102.103");
    expect(findTailnetAddress({ eth0: table.eth0 } as never)).toBeUndefined();
  });
});
