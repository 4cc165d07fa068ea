// The `pincer devices` family: list, approve (`[requestId] | --latest`), reject and revoke
// (`--device ID [--role R]`), in OpenClaw's shapes. Declarations only; each `run` loads on first call.
import { defineCommand, flag, lazyRun, value } from "../command.js";

/** `pincer devices`. */
export const devicesGroup = {
  path: ["devices"],
  description: "list, approve, reject and revoke paired devices (gateway clients)",
} as const;

/** Options of `pincer devices list`. */
export const listOptions = { json: flag("print JSON") };
/** Options of `pincer devices approve`. */
export const approveOptions = {
  latest: flag("approve the newest pending request"),
  json: flag("print JSON"),
};
/** Options of `pincer devices reject`. */
export const rejectOptions = { json: flag("print JSON") };
/** Options of `pincer devices revoke`. */
export const revokeOptions = {
  device: value("<id>", "device id (or a unique prefix)"),
  role: value("<role>", "withdraw only this role (e.g. node); the device keeps its others"),
  json: flag("print JSON"),
};

/** Every `pincer devices` command. */
export const devicesCommands = [
  defineCommand({
    path: ["devices", "list"],
    isDefault: true,
    description: "paired devices and pending pairing requests (never shows tokens)",
    options: listOptions,
    run: lazyRun(() => import("./list.js")),
  }),
  defineCommand({
    path: ["devices", "approve"],
    description:
      "approve a pending pairing request; the device gets a device token on its next connect",
    arguments: [
      {
        name: "requestId",
        description: "request id (or a unique prefix), from pincer devices list",
      },
    ],
    options: approveOptions,
    run: lazyRun(() => import("./approve.js")),
  }),
  defineCommand({
    path: ["devices", "reject"],
    description: "drop a pending pairing request",
    arguments: [
      { name: "requestId", description: "request id (or a unique prefix)", required: true },
    ],
    options: rejectOptions,
    run: lazyRun(() => import("./reject.js")),
  }),
  defineCommand({
    path: ["devices", "revoke"],
    description:
      "unpair a device and revoke its tokens (or one --role); it must be approved again, even over loopback",
    arguments: [
      { name: "deviceId", description: "device id (or a unique prefix); same as --device" },
    ],
    options: revokeOptions,
    run: lazyRun(() => import("./revoke.js")),
  }),
];
