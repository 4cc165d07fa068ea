// The connect-time device authority against a temp state dir with a fake clock.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../test/helpers/temp-cleanup.js";
import { createEntryLogger } from "../../lib/logger.js";
import { createDeviceAuthority } from "./authority.js";
import { createDeviceIdentity, type DeviceIdentity, signDeviceProof } from "./proof.js";
import type { VerifyConnectInput } from "./types.js";

const T0 = 1_800_000_000_000;

function setup() {
  const stateDir = makeTempDir("pincer-devices-");
  const clock = { t: T0, now: () => clock.t };
  const logs: string[] = [];
  const logger = createEntryLogger((entry) => logs.push(entry.msg));
  const authority = createDeviceAuthority({ stateDir, clock, logger });
  let counter = 0;
  const identity = createDeviceIdentity();
  /** A signed connect for `identity` with a fresh nonce (like a new connection's challenge). */
  const connect = (
    over: Partial<VerifyConnectInput> & { id?: DeviceIdentity; nonce?: string } = {},
  ): VerifyConnectInput => {
    const nonce = over.nonce ?? `nonce-${++counter}`;
    const client = over.client ?? { id: "cli", mode: "cli", platform: "linux" };
    const role = over.role ?? "operator";
    const scopes = over.scopes ?? ["operator.read", "operator.write"];
    const auth = over.auth ?? { token: "shared" };
    const device = signDeviceProof({
      identity: over.id ?? identity,
      client,
      role,
      scopes,
      token: auth.token ?? auth.deviceToken ?? "",
      nonce,
      signedAt: clock.now(),
    });
    return {
      device,
      auth,
      client,
      role,
      scopes,
      nonce,
      remoteAddress: "127.0.0.1",
      isLoopback: true,
      sharedAuthOk: true,
      ...over,
    };
  };
  return { stateDir, clock, authority, identity, connect, logs };
}

describe("createDeviceAuthority().verifyConnect", () => {
  it("lets a client without device in only with shared auth", async () => {
    const { authority, connect } = setup();
    const { device: _d, ...noDevice } = connect();
    expect(await authority.verifyConnect(noDevice)).toEqual({ ok: true, paired: false });
    expect(await authority.verifyConnect({ ...noDevice, sharedAuthOk: false })).toEqual({
      ok: false,
      error: {
        code: "NOT_PAIRED",
        message: "device identity required",
        details: { code: "DEVICE_IDENTITY_REQUIRED" },
      },
    });
  });

  it("refuses a bad proof with INVALID_REQUEST and its detail code", async () => {
    const { authority, connect, clock } = setup();
    const input = connect();
    expect(await authority.verifyConnect({ ...input, nonce: "other" })).toMatchObject({
      ok: false,
      error: { code: "INVALID_REQUEST", details: { code: "DEVICE_AUTH_NONCE_MISMATCH" } },
    });
    clock.t += 121_000;
    expect(await authority.verifyConnect(connect({ nonce: "late" }))).toMatchObject({ ok: true });
    expect(await authority.verifyConnect({ ...input })).toMatchObject({
      error: { details: { code: "DEVICE_AUTH_SIGNATURE_EXPIRED" } },
    });
  });

  it("auto-pairs a loopback device, issues a token, then accepts the token", async () => {
    const { authority, connect, identity, stateDir } = setup();
    const first = await authority.verifyConnect(connect());
    expect(first).toMatchObject({ ok: true, paired: true, deviceId: identity.deviceId });
    if (!first.ok || !first.deviceToken) throw new Error("expected a device token");
    expect(first.issuedAtMs).toBe(T0);
    expect(first.deviceToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const device = await authority.store.getPaired(identity.deviceId);
    expect(device).toMatchObject({ approvedBy: "auto-loopback", platform: "linux" });

    // Later connect with the device token (no shared secret): accepted, no new token.
    const again = await authority.verifyConnect(
      connect({ auth: { deviceToken: first.deviceToken }, sharedAuthOk: false }),
    );
    expect(again).toEqual({ ok: true, deviceId: identity.deviceId, paired: true });
    const files = ["paired.json", "pending.json"].map((f) => join(stateDir, "devices", f));
    const text = readFileSync(files[0]!, "utf8");
    expect(text).not.toContain(first.deviceToken);
    expect(text).toMatch(/"tokenHash": "[0-9a-f]{64}"/);
    expect(JSON.parse(text)[identity.deviceId].tokens[0].lastUsedAt).toBe(T0);
    expect(statSync(files[0]!).mode & 0o777).toBe(0o600);
  });

  it("refuses a wrong device token and a connect with neither shared auth nor token", async () => {
    const { authority, connect } = setup();
    await authority.verifyConnect(connect());
    expect(
      await authority.verifyConnect(
        connect({ auth: { deviceToken: "forged" }, sharedAuthOk: false }),
      ),
    ).toMatchObject({
      error: { code: "INVALID_REQUEST", details: { code: "DEVICE_TOKEN_INVALID" } },
    });
    expect(await authority.verifyConnect(connect({ auth: {}, sharedAuthOk: false }))).toMatchObject(
      {
        error: { code: "INVALID_REQUEST", details: { code: "AUTH_REQUIRED" } },
      },
    );
  });

  it("refuses a replayed nonce", async () => {
    const { authority, connect } = setup();
    const input = connect({ nonce: "same" });
    expect(await authority.verifyConnect(input)).toMatchObject({ ok: true });
    expect(await authority.verifyConnect(input)).toMatchObject({
      ok: false,
      error: { code: "INVALID_REQUEST", details: { code: "DEVICE_AUTH_NONCE_REPLAYED" } },
    });
  });

  it("requires re-pairing when the pinned platform or deviceFamily changes", async () => {
    const { authority, connect } = setup();
    await authority.verifyConnect(connect());
    // Case and spaces are normalized: still the same device.
    const same = connect({ client: { id: "cli", mode: "cli", platform: " LINUX" } });
    expect(await authority.verifyConnect(same)).toMatchObject({ ok: true });
    const moved = connect({ client: { id: "cli", mode: "cli", platform: "darwin" } });
    const result = await authority.verifyConnect(moved);
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: "NOT_PAIRED",
        details: {
          code: "DEVICE_METADATA_CHANGED",
          pinned: { platform: "linux", deviceFamily: "" },
          presented: { platform: "darwin", deviceFamily: "" },
        },
      },
    });
    if (result.ok) throw new Error("unreachable");
    const requestId = String(result.error.details.requestId);
    const approved = await authority.store.approve(requestId);
    expect(approved).toMatchObject({ platform: "darwin", approvedBy: "operator" });
    expect(
      await authority.verifyConnect(
        connect({ client: { id: "cli", mode: "cli", platform: "darwin" } }),
      ),
    ).toMatchObject({ ok: true, paired: true });
  });

  it("queues a remote device, accepts it once approved, refuses it once revoked", async () => {
    const { authority, connect, identity, stateDir } = setup();
    const remote = { isLoopback: false, remoteAddress: "203.0.113.7" };
    const first = await authority.verifyConnect(connect(remote));
    expect(first).toMatchObject({
      ok: false,
      error: {
        code: "NOT_PAIRED",
        details: { code: "PAIRING_REQUIRED", reason: "not-paired" },
      },
    });
    if (first.ok) throw new Error("unreachable");
    // Retrying keeps the same request.
    const retry = await authority.verifyConnect(connect(remote));
    expect(retry).toMatchObject({
      error: { details: { requestId: first.error.details.requestId } },
    });
    const pending = await authority.store.listPending();
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ deviceId: identity.deviceId, remoteAddress: "203.0.113.7" });
    expect(statSync(join(stateDir, "devices", "pending.json")).mode & 0o777).toBe(0o600);

    await authority.store.approve(String(first.error.details.requestId));
    expect(await authority.store.listPending()).toEqual([]);
    const ok = await authority.verifyConnect(connect(remote));
    expect(ok).toMatchObject({ ok: true, paired: true });
    if (!ok.ok) throw new Error("unreachable");

    await authority.store.revoke(identity.deviceId);
    const revoked = { ...remote, isLoopback: true };
    expect(
      await authority.verifyConnect(connect({ ...revoked, auth: { deviceToken: ok.deviceToken } })),
    ).toMatchObject({ error: { details: { code: "DEVICE_TOKEN_INVALID" } } });
    // Even on loopback, a revoked device needs an operator's approval again.
    expect(await authority.verifyConnect(connect(revoked))).toMatchObject({
      error: { code: "NOT_PAIRED", details: { code: "PAIRING_REQUIRED", reason: "revoked" } },
    });
  });

  it("binds the device token to the approved access; more is an upgrade request, never silent", async () => {
    const { authority, connect, identity, logs } = setup();
    const first = await authority.verifyConnect(connect({ scopes: ["operator.read"] }));
    if (!first.ok || !first.deviceToken) throw new Error("expected a device token");
    const byToken = (over: Partial<VerifyConnectInput> = {}) =>
      authority.verifyConnect(
        connect({ auth: { deviceToken: first.deviceToken }, sharedAuthOk: false, ...over }),
      );
    // Loopback does not make an upgrade silent.
    const admin = await byToken({ scopes: ["operator.admin"] });
    expect(admin).toMatchObject({
      ok: false,
      error: {
        code: "NOT_PAIRED",
        details: {
          code: "PAIRING_REQUIRED",
          reason: "scope-upgrade",
          approvedScopes: ["operator.read"],
          requestedScopes: ["operator.admin"],
        },
      },
    });
    expect(logs.some((line) => line.startsWith("security audit:"))).toBe(true);
    // `access` (what the gateway would grant) is what counts, not the signed list.
    expect(
      await byToken({ scopes: [], access: { role: "operator", scopes: ["operator.write"] } }),
    ).toMatchObject({ ok: false, error: { details: { reason: "scope-upgrade" } } });
    expect(await byToken({ role: "node", scopes: [] })).toMatchObject({
      ok: false,
      error: { details: { reason: "role-upgrade", requestedRole: "node" } },
    });
    expect(await byToken({ scopes: ["operator.read"] })).toMatchObject({ ok: true });
    // The shared secret is the master key: granted, nothing queued, the approval unchanged.
    const pendingBefore = (await authority.store.listPending()).length;
    expect(await authority.verifyConnect(connect({ scopes: ["operator.admin"] }))).toMatchObject({
      ok: true,
    });
    expect((await authority.store.listPending()).length).toBe(pendingBefore);
    // Approving the node role request keeps the operator role and the tokens.
    const [request] = await authority.store.listPending();
    expect(request).toMatchObject({ reason: "role-upgrade", approved: { roles: ["operator"] } });
    const approved = await authority.store.approve(request!.requestId);
    expect(approved).toMatchObject({ roles: ["operator", "node"], scopes: ["operator.read"] });
    expect(await byToken({ role: "node", scopes: [] })).toMatchObject({ ok: true });
    expect(await byToken({ scopes: ["operator.read"] })).toMatchObject({ ok: true });
    expect(await byToken({ scopes: ["operator.admin"] })).toMatchObject({ ok: false });
    expect((await authority.store.getPaired(identity.deviceId))?.tokens.length).toBeGreaterThan(0);
  });

  it("records the asked access on a metadata-change request, next to the current approval", async () => {
    const { authority, connect } = setup();
    const first = await authority.verifyConnect(connect({ scopes: ["operator.read"] }));
    if (!first.ok) throw new Error("expected a pairing");
    const moved = await authority.verifyConnect(
      connect({
        client: { id: "cli", mode: "cli", platform: "darwin" },
        scopes: ["operator.admin"],
        auth: { deviceToken: first.deviceToken },
        sharedAuthOk: false,
      }),
    );
    expect(moved).toMatchObject({
      ok: false,
      error: { details: { code: "DEVICE_METADATA_CHANGED" } },
    });
    expect(await authority.store.listPending()).toEqual([
      expect.objectContaining({
        reason: "metadata-changed",
        metadata: expect.objectContaining({ platform: "darwin", scopes: ["operator.admin"] }),
        approved: { roles: ["operator"], scopes: ["operator.read"] },
      }),
    ]);
  });
});
