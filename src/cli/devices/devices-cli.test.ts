// The `pincer devices …` command modules, run in-process against a temp state dir (their `run` is called
// directly, through test/helpers/cli-sandbox.ts's callCommand).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type CommandRun, callCommand } from "../../../test/helpers/cli-sandbox.js";
import { makeTempDir } from "../../../test/helpers/temp-cleanup.js";
import {
  createDeviceAuthority,
  createDeviceIdentity,
  signDeviceProof,
} from "../../gateway/devices/index.js";
import { CliError } from "../command-context.js";
import * as approve from "./approve.js";
import * as list from "./list.js";
import * as reject from "./reject.js";
import * as revoke from "./revoke.js";

function sandbox() {
  const home = makeTempDir("pincer-devices-cli-");
  const stateDir = join(home, ".openclaw");
  const env = { HOME: home, OPENCLAW_STATE_DIR: stateDir };
  const authority = createDeviceAuthority({ stateDir, clock: { now: () => Date.now() } });
  let n = 0;
  /** One connect of a fresh device, as the gateway would verify it. */
  const connectDevice = async (isLoopback: boolean) => {
    const identity = createDeviceIdentity();
    const client = {
      id: "openclaw-macos",
      mode: "ui",
      platform: "macos",
      displayName: "Ana's Mac",
    };
    const nonce = `nonce-${++n}`;
    const device = signDeviceProof({
      identity,
      client,
      role: "operator",
      scopes: ["operator.read"],
      token: "shared",
      nonce,
      signedAt: Date.now(),
    });
    const result = await authority.verifyConnect({
      device,
      auth: { token: "shared" },
      client,
      role: "operator",
      scopes: ["operator.read"],
      nonce,
      remoteAddress: isLoopback ? "127.0.0.1" : "198.51.100.4",
      isLoopback,
      sharedAuthOk: true,
    });
    return { identity, result };
  };
  const run = (mod: { run: CommandRun }, args: string[], opts: Record<string, unknown> = {}) =>
    callCommand(mod.run, env, { args, opts });
  return { stateDir, authority, connectDevice, run };
}

describe("pincer devices", () => {
  it("lists nothing on a fresh state dir", async () => {
    const { run } = sandbox();
    const out = await run(list, []);
    expect(out.stdout).toContain("Pending pairing requests (0)");
    expect(out.stdout).toContain("Paired devices (0)");
    const json = JSON.parse((await run(list, [], { json: true })).stdout);
    expect(json).toMatchObject({ paired: [], pending: [] });
  });

  it("lists, approves, rejects and revokes, never printing tokens", async () => {
    const { run, connectDevice, stateDir } = sandbox();
    const local = await connectDevice(true);
    const remote = await connectDevice(false);
    const other = await connectDevice(false);
    expect(remote.result.ok).toBe(false);

    const listed = JSON.parse((await run(list, [], { json: true })).stdout);
    expect(listed.paired).toHaveLength(1);
    expect(listed.paired[0]).toMatchObject({
      deviceId: local.identity.deviceId,
      status: "paired",
      approvedBy: "auto-loopback",
      activeTokens: 1,
      displayName: "Ana's Mac",
    });
    expect(listed.pending.map((p: { deviceId: string }) => p.deviceId).sort()).toEqual(
      [remote.identity.deviceId, other.identity.deviceId].sort(),
    );
    const text = (await run(list, [])).stdout;
    expect(text).toContain("Paired devices (1)");
    expect(text).toContain("198.51.100.4");
    const token = local.result.ok ? local.result.deviceToken! : "";
    for (const output of [
      text,
      JSON.stringify(listed),
      readFileSync(join(stateDir, "devices", "paired.json"), "utf8"),
    ]) {
      expect(output).not.toContain(token);
    }
    expect(JSON.stringify(listed)).not.toContain("tokenHash");

    const requestOf = (deviceId: string) =>
      listed.pending.find((p: { deviceId: string }) => p.deviceId === deviceId).requestId as string;
    const approved = await run(approve, [requestOf(remote.identity.deviceId).slice(0, 8)]);
    expect(approved).toMatchObject({ code: 0 });
    expect(approved.stdout).toContain(`Approved device ${remote.identity.deviceId.slice(0, 12)}`);
    const rejected = await run(reject, [requestOf(other.identity.deviceId)], { json: true });
    expect(JSON.parse(rejected.stdout)).toMatchObject({
      rejected: true,
      deviceId: other.identity.deviceId,
    });

    const revoked = await run(revoke, [local.identity.deviceId.slice(0, 10)]);
    expect(revoked.stdout).toContain("Revoked device");
    const after = JSON.parse((await run(list, [], { json: true })).stdout);
    expect(after.pending).toEqual([]);
    expect(
      after.paired.map((d: { status: string; activeTokens: number }) => [d.status, d.activeTokens]),
    ).toEqual([
      ["revoked", 0],
      ["paired", 0],
    ]);
  });

  it("shows a scope upgrade next to what the device has, and approves it", async () => {
    const { run, connectDevice, authority } = sandbox();
    const local = await connectDevice(true);
    if (!local.result.ok) throw new Error("expected a loopback pairing");
    const client = { id: "openclaw-macos", mode: "ui", platform: "macos" };
    const claim = (nonce: string) =>
      authority.verifyConnect({
        device: signDeviceProof({
          identity: local.identity,
          client,
          role: "operator",
          scopes: ["operator.admin"],
          token: local.result.ok ? local.result.deviceToken! : "",
          nonce,
          signedAt: Date.now(),
        }),
        auth: { deviceToken: local.result.ok ? local.result.deviceToken! : "" },
        client,
        role: "operator",
        scopes: ["operator.admin"],
        nonce,
        remoteAddress: "127.0.0.1",
        isLoopback: true,
        sharedAuthOk: false,
      });
    expect(await claim("upgrade-1")).toMatchObject({
      ok: false,
      error: { code: "NOT_PAIRED", details: { reason: "scope-upgrade" } },
    });
    const listed = JSON.parse((await run(list, [], { json: true })).stdout);
    expect(listed.pending).toEqual([
      expect.objectContaining({
        deviceId: local.identity.deviceId,
        reason: "scope-upgrade",
        role: "operator",
        scopes: ["operator.admin"],
        approvedRoles: ["operator"],
        approvedScopes: ["operator.read"],
      }),
    ]);
    const text = (await run(list, [])).stdout;
    expect(text).toMatch(/scope-upgrade +operator: operator\.admin +operator: operator\.read/);
    expect(text).toMatch(/paired +openclaw-macos \(Ana's Mac\) +macos +operator: operator\.read/);
    const approved = await run(approve, [listed.pending[0].requestId]);
    expect(approved.stdout).toContain(
      `Approved scope-upgrade of device ${local.identity.deviceId.slice(0, 12)}`,
    );
    expect(approved.stdout).toContain("operator: operator.read,operator.admin");
    expect(await claim("upgrade-2")).toMatchObject({ ok: true, paired: true });
  });

  it("fails with exit 1 and a clear message for unknown ids", async () => {
    const { run } = sandbox();
    for (const [mod, what] of [
      [approve, "pairing request"],
      [reject, "pairing request"],
      [revoke, "device"],
    ] as const) {
      const error = await run(mod, ["deadbeef"]).catch((err: unknown) => err);
      expect(error).toBeInstanceOf(CliError);
      expect((error as CliError).exitCode).toBe(1);
      expect((error as CliError).message).toBe(
        `unknown ${what} "deadbeef" (see pincer devices list)`,
      );
    }
  });
});
