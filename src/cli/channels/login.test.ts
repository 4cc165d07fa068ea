import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createCliSandbox } from "../../../test/helpers/cli-sandbox.js";
import { capturingContext, createFakeProcessIo } from "../../../test/helpers/fake-process-io.js";
import {
  createFakeWhatsAppLogin,
  type FakeWhatsAppLogin,
  waitUntil,
} from "../../../test/helpers/fake-whatsapp-login.js";
import { closedPort } from "../../../test/helpers/gateway-sandbox.js";
import { builtinChannelLoaders } from "../../channels/builtin.js";
import { createWhatsAppAdapter } from "../../channels/whatsapp/index.js";
import { readWhatsAppAuthLock } from "../../channels/whatsapp/web/auth-lock.js";
import { createWhatsAppLogin } from "../../channels/whatsapp/web/linker.js";
import { qrTerminal } from "../../channels/whatsapp/web/qr-render.js";
import { silentLogger } from "../../lib/logger.js";
import type { ChannelLoginDeps } from "./login.js";
import { runLogin } from "./login.js";
import { runLogout } from "./logout.js";

const JID = "15551234567:7@s.whatsapp.net";

/** A command input from loose options (the flags a test sets; the rest absent). */
function input(opts: object) {
  return { args: [], opts: opts as never };
}

function loginDeps(fake: FakeWhatsAppLogin): ChannelLoginDeps {
  return {
    loaders: {
      ...builtinChannelLoaders(),
      whatsapp: async () => ({
        ...createWhatsAppAdapter(),
        login: createWhatsAppLogin({ createSocket: fake.factory }),
      }),
    },
  };
}

/** A sandbox with a `personal` WhatsApp account and no gateway listening. */
async function sandbox() {
  const sb = createCliSandbox();
  sb.writeConfig("{ channels: { whatsapp: { accounts: { personal: {}, biz: {} } } } }");
  const url = `ws://127.0.0.1:${await closedPort()}`;
  const authDir = join(sb.stateDir, "credentials", "whatsapp", "personal");
  const opts = { channel: "whatsapp", account: "personal", url, timeout: "500" };
  return { sb, authDir, opts, ...capturingContext({ env: sb.env }) };
}

const children: Array<{ kill: () => void }> = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill();
});

describe("pincer channels login (no gateway: links here)", () => {
  it("draws each rotated QR, reopens once after the 515 restart and ends linked", async () => {
    const { authDir, opts, ctx, out } = await sandbox();
    const fake = createFakeWhatsAppLogin();
    const done = runLogin(ctx, input(opts), loginDeps(fake));
    const first = await fake.socket(0);
    first.qr("2@QR-ONE");
    await waitUntil(() => out().includes("(QR 1;"), "the first QR");
    // While linking, this process holds the account's auth-dir lock.
    expect(readWhatsAppAuthLock(authDir)?.pid).toBe(process.pid);
    first.qr("2@QR-TWO");
    await waitUntil(() => out().includes("(QR 2;"), "the rotated QR");
    first.scanned(JID);
    const reopened = await fake.socket(1);
    // The pairing's creds were on disk before the restart: the new socket opens with them.
    expect(reopened.hasCreds).toBe(true);
    reopened.open();
    expect(await done).toBe(0);
    expect(out()).toContain(qrTerminal("2@QR-ONE"));
    expect(out()).toContain(qrTerminal("2@QR-TWO"));
    expect(out()).toContain("Linked +15551234567 as account personal");
    expect(JSON.parse(readFileSync(join(authDir, "creds.json"), "utf8")).me.id).toBe(JID);
    expect(readWhatsAppAuthLock(authDir)).toBeUndefined();
    expect(first.ended && reopened.ended).toBe(true);
  });

  it("ends with the reason when WhatsApp stops issuing QR codes (408)", async () => {
    const { authDir, opts, ctx, out } = await sandbox();
    const fake = createFakeWhatsAppLogin();
    const done = runLogin(ctx, input(opts), loginDeps(fake));
    const socket = await fake.socket(0);
    for (const [i, text] of ["2@A", "2@B", "2@C"].entries()) {
      socket.qr(text);
      await waitUntil(() => out().includes(`(QR ${i + 1};`), `QR ${i + 1}`);
    }
    socket.close(408, "QR refs attempts ended");
    await expect(done).rejects.toThrow("login failed: QR code expired after 3 attempts");
    expect(readWhatsAppAuthLock(authDir)).toBeUndefined();
  });

  it("says when WhatsApp logged the device out, and leaves no stale creds", async () => {
    const { authDir, opts, ctx } = await sandbox();
    const fake = createFakeWhatsAppLogin((socket) => socket.close(401, "Connection Failure"));
    await expect(runLogin(ctx, input(opts), loginDeps(fake))).rejects.toThrow(
      /logged this device out/,
    );
    expect(existsSync(join(authDir, "creds.json"))).toBe(false);
  });

  it("refuses while another process holds the account's session, naming its pid", async () => {
    const { authDir, opts, ctx } = await sandbox();
    const holder = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"]);
    children.push(holder);
    mkdirSync(authDir, { recursive: true });
    writeFileSync(
      join(authDir, ".pincer.lock"),
      JSON.stringify({ pid: holder.pid, createdAt: new Date().toISOString(), command: "gateway" }),
    );
    const fake = createFakeWhatsAppLogin();
    await expect(runLogin(ctx, input(opts), loginDeps(fake))).rejects.toThrow(
      `pid ${holder.pid} (gateway)`,
    );
    expect(fake.sockets).toHaveLength(0);
  });

  it("Ctrl-C ends the attempt: the socket closes and the lock is released", async () => {
    const { authDir, opts, ctx, out } = await sandbox();
    const proc = createFakeProcessIo();
    const fake = createFakeWhatsAppLogin();
    const done = runLogin({ ...ctx, onSignal: proc.io.onSignal }, input(opts), loginDeps(fake));
    const socket = await fake.socket(0);
    socket.qr("2@QR");
    await waitUntil(() => out().includes("(QR 1;"), "the QR");
    proc.signals.send("SIGINT");
    await expect(done).rejects.toThrow("login cancelled");
    expect(socket.ended).toBe(true);
    expect(readWhatsAppAuthLock(authDir)).toBeUndefined();
  });

  it("one attempt per account for concurrent starts; cancelAll (a stopping gateway) ends it", async () => {
    const { sb, authDir } = await sandbox();
    const fake = createFakeWhatsAppLogin();
    const login = createWhatsAppLogin({ createSocket: fake.factory });
    const request = {
      accountId: "personal",
      config: {},
      stateDir: sb.stateDir,
      env: sb.env,
      log: silentLogger,
      force: false,
      timeoutMs: 10_000,
    };
    // Two starts at once (a double click): one attempt, one socket, the same QR for both.
    const started = [login.start(request), login.start(request)];
    (await fake.socket(0)).qr("2@QR");
    const [first, second] = await Promise.all(started);
    expect(first?.qr).toBe("2@QR");
    expect(second?.qr).toBe("2@QR");
    expect(fake.sockets).toHaveLength(1);
    await login.cancelAll();
    expect(fake.sockets[0]?.ended).toBe(true);
    expect(readWhatsAppAuthLock(authDir)).toBeUndefined();
    expect((await login.wait({ accountId: "personal", timeoutMs: 1000 })).reason).toBe("no-login");
  });

  it("does not relink an account that is linked (without --force)", async () => {
    const { authDir, opts, ctx, out } = await sandbox();
    mkdirSync(authDir, { recursive: true });
    writeFileSync(join(authDir, "creds.json"), JSON.stringify({ me: { id: JID } }));
    const fake = createFakeWhatsAppLogin();
    expect(await runLogin(ctx, input(opts), loginDeps(fake))).toBe(0);
    expect(out()).toContain("already linked (+15551234567)");
    expect(fake.sockets).toHaveLength(0);
  });

  it("--force relinks: the old device is logged out first, then a new QR links", async () => {
    const { authDir, opts, ctx, out } = await sandbox();
    mkdirSync(authDir, { recursive: true });
    writeFileSync(join(authDir, "creds.json"), JSON.stringify({ me: { id: JID } }));
    const fake = createFakeWhatsAppLogin((socket, index) => {
      if (index === 0) socket.open(); // the old session, opened to log it out
      if (index === 1) socket.qr("2@NEW");
      if (index === 2) socket.open();
    });
    const done = runLogin(ctx, input({ ...opts, force: true }), loginDeps(fake));
    await waitUntil(() => out().includes("(QR 1;"), "the new QR");
    expect(fake.sockets[0]?.loggedOut).toBe(true);
    // The new link starts from fresh creds, not the old device's.
    expect(fake.sockets[1]?.hasCreds).toBe(false);
    fake.sockets[1]?.scanned("15550009999:1@s.whatsapp.net");
    expect(await done).toBe(0);
    expect(out()).toContain("Linked +15550009999 as account personal");
  });

  it("is a declared command: argv reaches it, and a Cloud API account has no QR login", async () => {
    const { sb, opts, ctx } = await sandbox();
    const res = await sb.run(["channels", "login", "--channel", "telegram"]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("telegram has no login");
    sb.writeConfig(
      '{ channels: { whatsapp: { accounts: { personal: { transport: "cloud" }, biz: {} } } } }',
    );
    const fake = createFakeWhatsAppLogin();
    await expect(runLogin(ctx, input(opts), loginDeps(fake))).rejects.toThrow(
      "uses the Cloud API (transport: cloud): it has no QR login",
    );
    expect(fake.sockets).toHaveLength(0);
  });

  it("asks for --account when several are configured, and says a token channel has no login", async () => {
    const { opts, ctx } = await sandbox();
    const fake = createFakeWhatsAppLogin();
    const { account: _named, ...unnamed } = opts;
    await expect(runLogin(ctx, input(unnamed), loginDeps(fake))).rejects.toThrow(
      "whatsapp has several accounts (personal, biz): name one with --account",
    );
    await expect(
      runLogin(ctx, input({ ...unnamed, channel: "telegram" }), loginDeps(fake)),
    ).rejects.toThrow("telegram has no login: add its token with pincer channels add");
  });
});

describe("pincer channels logout (no gateway)", () => {
  it("tells WhatsApp, removes the account's auth dir and nothing else", async () => {
    const { sb, authDir, opts, ctx, out } = await sandbox();
    mkdirSync(authDir, { recursive: true });
    writeFileSync(join(authDir, "creds.json"), JSON.stringify({ me: { id: JID } }));
    writeFileSync(join(authDir, "pre-key-1.json"), "{}");
    const other = join(sb.stateDir, "credentials", "whatsapp", "biz");
    mkdirSync(other, { recursive: true });
    writeFileSync(
      join(other, "creds.json"),
      JSON.stringify({ me: { id: "1555000:1@s.whatsapp.net" } }),
    );
    const fake = createFakeWhatsAppLogin((socket) => socket.open());
    expect(await runLogout(ctx, input(opts), loginDeps(fake))).toBe(0);
    expect(fake.sockets[0]?.loggedOut).toBe(true);
    expect(existsSync(authDir)).toBe(false);
    expect(existsSync(join(other, "creds.json"))).toBe(true);
    expect(existsSync(sb.configPath)).toBe(true);
    expect(out()).toContain(
      "Logged out WhatsApp account personal (+15551234567): unlinked on WhatsApp",
    );
  });

  it("says so for an account that was never linked", async () => {
    const { opts, ctx, out } = await sandbox();
    const fake = createFakeWhatsAppLogin();
    expect(await runLogout(ctx, input(opts), loginDeps(fake))).toBe(0);
    expect(out()).toContain("WhatsApp account personal was never linked");
    expect(fake.sockets).toHaveLength(0);
  });
});
