// `pincer devices approve [requestId] --latest` and `devices revoke --device ID [--role R]` through the
// real argv parser (OpenClaw's shapes), against a temp state dir and the real device authority.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createCliSandbox } from "../../../test/helpers/cli-sandbox.js";
import {
  createDeviceAuthority,
  createDeviceIdentity,
  type DeviceIdentity,
  signDeviceProof,
} from "../../gateway/devices/index.js";

function sandbox() {
  const sb = createCliSandbox();
  const authority = createDeviceAuthority({
    stateDir: sb.stateDir,
    clock: { now: () => Date.now() },
  });
  let n = 0;
  /** One connect of `identity` asking for `role`, as the gateway would verify it. */
  const connect = async (params: {
    identity: DeviceIdentity;
    role: string;
    scopes?: string[];
    isLoopback?: boolean;
    /** Connect with this device token instead of the shared secret. */
    deviceToken?: string;
  }) => {
    const client = { id: "openclaw-macos", mode: "ui", platform: "macos" };
    const nonce = `nonce-${++n}`;
    const scopes = params.scopes ?? [];
    const device = signDeviceProof({
      identity: params.identity,
      client,
      role: params.role,
      scopes,
      token: params.deviceToken ?? "shared",
      nonce,
      signedAt: Date.now(),
    });
    const isLoopback = params.isLoopback ?? false;
    return authority.verifyConnect({
      device,
      auth: params.deviceToken ? { deviceToken: params.deviceToken } : { token: "shared" },
      client,
      role: params.role,
      scopes,
      nonce,
      remoteAddress: isLoopback ? "127.0.0.1" : "198.51.100.7",
      isLoopback,
      sharedAuthOk: params.deviceToken === undefined,
    });
  };
  const pending = async () =>
    JSON.parse((await sb.run(["devices", "list", "--json"])).stdout).pending as Array<{
      requestId: string;
      deviceId: string;
    }>;
  return { sb, connect, pending };
}

describe("pincer devices (OpenClaw's argument shapes)", () => {
  it("approve --latest takes the newest request; both or neither is a usage error; none is exit 1", async () => {
    const { sb, connect, pending } = sandbox();
    const none = await sb.run(["devices", "approve", "--latest"]);
    expect(none).toMatchObject({ code: 1 });
    expect(none.stderr).toContain("no pending pairing requests to approve");
    const older = createDeviceIdentity();
    const newer = createDeviceIdentity();
    await connect({ identity: older, role: "operator", scopes: ["operator.read"] });
    await new Promise((done) => setTimeout(done, 5));
    await connect({ identity: newer, role: "operator", scopes: ["operator.read"] });
    const requests = await pending();
    expect(requests).toHaveLength(2);

    const both = await sb.run(["devices", "approve", requests[0]!.requestId, "--latest"]);
    expect(both).toMatchObject({ code: 2 });
    expect(both.stderr).toContain("give a request id or --latest, not both");
    const neither = await sb.run(["devices", "approve"]);
    expect(neither).toMatchObject({ code: 2 });
    expect(neither.stderr).toContain("or --latest for the newest");

    const latest = await sb.run(["devices", "approve", "--latest", "--json"]);
    expect(JSON.parse(latest.stdout)).toMatchObject({
      approved: true,
      device: { deviceId: newer.deviceId },
    });
    expect((await pending()).map((r) => r.deviceId)).toEqual([older.deviceId]);
  });

  it("revoke --device ID --role R withdraws one role; its only role (or no --role) unpairs", async () => {
    const { sb, connect } = sandbox();
    const identity = createDeviceIdentity();
    const first = await connect({
      identity,
      role: "operator",
      scopes: ["operator.read"],
      isLoopback: true,
    });
    const deviceToken = first.ok ? first.deviceToken : undefined;
    expect(deviceToken).toBeDefined();
    expect(await connect({ identity, role: "node", deviceToken })).toMatchObject({
      ok: false,
      error: { details: { reason: "role-upgrade" } },
    });
    expect((await sb.run(["devices", "approve", "--latest"])).code).toBe(0);
    expect(await connect({ identity, role: "node", deviceToken })).toMatchObject({ ok: true });

    const prefix = identity.deviceId.slice(0, 10);
    const lacking = await sb.run(["devices", "revoke", "--device", prefix, "--role", "admin"]);
    expect(lacking.code).toBe(1);
    expect(lacking.stderr).toContain("is not approved for role admin (it has operator, node)");
    const twice = await sb.run(["devices", "revoke", prefix, "--device", "abc"]);
    expect(twice.code).toBe(2);

    const role = await sb.run([
      "devices",
      "revoke",
      "--device",
      prefix,
      "--role",
      "node",
      "--json",
    ]);
    expect(JSON.parse(role.stdout)).toMatchObject({
      revoked: true,
      role: "node",
      roles: ["operator"],
    });
    expect(await connect({ identity, role: "node", deviceToken })).toMatchObject({
      ok: false,
      error: { details: { reason: "role-upgrade" } },
    });
    expect(
      await connect({ identity, role: "operator", scopes: ["operator.read"], deviceToken }),
    ).toMatchObject({ ok: true });

    const last = await sb.run(["devices", "revoke", "--device", prefix, "--role", "operator"]);
    expect(last.stdout).toContain("(operator was its only role)");
    const listed = JSON.parse((await sb.run(["devices", "list", "--json"])).stdout);
    expect(listed.paired[0]).toMatchObject({ status: "revoked", activeTokens: 0 });
    expect(join(sb.stateDir, "devices")).toBe(listed.dir);
  });
});
