// The host's Tailscale address, for `--bind tailnet`: Tailscale gives each node an IPv4 address in
// the CGNAT range 100.64.0.0/10 (and an IPv6 one in fd7a:115c:a1e0::/48); we listen on the IPv4 one.
import { type NetworkInterfaceInfo, networkInterfaces } from "node:os";

/** Interface table as `os.networkInterfaces()` returns it (passed in by tests). */
export type InterfaceTable = NodeJS.Dict<NetworkInterfaceInfo[]>;

/** True for an IPv4 address inside 100.64.0.0/10. */
export function isTailnetIPv4(address: string): boolean {
  const parts = address.split(".").map(Number);
  if (parts.length !== 4 || parts.some((part) => !Number.isInteger(part))) return false;
  return parts[0] === 100 && parts[1] >= 64 && parts[1] <= 127;
}

/** The first Tailscale IPv4 address of this host, or undefined when Tailscale is not up. */
export function findTailnetAddress(
  table: InterfaceTable = networkInterfaces(),
): string | undefined {
  for (const entries of Object.values(table)) {
    for (const entry of entries ?? []) {
      if (entry.family === "IPv4" && !entry.internal && isTailnetIPv4(entry.address))
        return entry.address;
    }
  }
  return undefined;
}
