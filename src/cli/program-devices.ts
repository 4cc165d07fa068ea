// The `pincer devices` commands: list, approve (`[requestId] | --latest`), reject and revoke
// (`--device ID [--role R]`), OpenClaw's shapes. Registered by program.ts; each action loads its module
// on demand.
import type { Command } from "commander";

/** What program.ts hands over: the lazy action wrapper. */
export interface DeviceCommandTools {
  // biome-ignore lint/suspicious/noExplicitAny: mirrors program.ts's lazy loader signature.
  lazy: (load: () => Promise<{ run: any }>) => (...args: unknown[]) => Promise<void>;
}

/** Adds `devices list|approve|reject|revoke` to `program`. */
export function registerDeviceCommands(program: Command, tools: DeviceCommandTools): void {
  const { lazy } = tools;
  const devices = program
    .command("devices")
    .description("list, approve, reject and revoke paired devices (gateway clients)");
  devices
    .command("list", { isDefault: true })
    .description("paired devices and pending pairing requests (never shows tokens)")
    .option("--json", "print JSON")
    .action(lazy(() => import("./devices-list.js")));
  devices
    .command("approve")
    .description(
      "approve a pending pairing request; the device gets a device token on its next connect",
    )
    .argument("[requestId]", "request id (or a unique prefix), from pincer devices list")
    .option("--latest", "approve the newest pending request")
    .option("--json", "print JSON")
    .action(lazy(() => import("./devices-approve.js")));
  devices
    .command("reject")
    .description("drop a pending pairing request")
    .argument("<requestId>", "request id (or a unique prefix)")
    .option("--json", "print JSON")
    .action(lazy(() => import("./devices-reject.js")));
  devices
    .command("revoke")
    .description(
      "unpair a device and revoke its tokens (or one --role); it must be approved again, even over loopback",
    )
    .argument("[deviceId]", "device id (or a unique prefix); same as --device")
    .option("--device <id>", "device id (or a unique prefix)")
    .option("--role <role>", "withdraw only this role (e.g. node); the device keeps its others")
    .option("--json", "print JSON")
    .action(lazy(() => import("./devices-revoke.js")));
}
