// The life of a WhatsApp Web account against the fake socket: connected with its own number,
// terminal closes (logged out, replaced) that never reconnect, transient closes that end the run
// for the supervisor, restartRequired reconnecting at once, an unlinked account waiting for a link,
// the one-session lock, and credentials saved atomically with 0600.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { BufferJSON } from "@whiskeysockets/baileys";
import { afterEach, describe, expect, it } from "vitest";
import { FakeWhatsApp, seedLinkedCreds } from "../../../../test/helpers/fake-whatsapp-socket.js";
import { makeTempDir } from "../../../../test/helpers/temp-cleanup.js";
import {
  OWN_NUMBER,
  type StartedWhatsAppAccount,
  startWhatsAppAccount,
} from "../../../../test/helpers/whatsapp-account.js";
import { readWhatsAppAuthLock } from "./auth-lock.js";
import { WA_DISCONNECT } from "./socket-seam.js";

const running: StartedWhatsAppAccount[] = [];
afterEach(async () => {
  for (const account of running.splice(0)) await account.runtime.stop();
});

async function start(params: Parameters<typeof startWhatsAppAccount>[0] = {}) {
  const account = await startWhatsAppAccount(params);
  running.push(account);
  return account;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("WhatsApp Web session", () => {
  it("reports connected with the own number, probes it, and holds the auth-dir lock", async () => {
    const { test, runtime, authDir } = await start();
    expect(test.status()).toMatchObject({
      connected: true,
      identity: { id: OWN_NUMBER, name: "Me" },
    });
    expect(await runtime.probe()).toMatchObject({ ok: true, identity: { id: OWN_NUMBER } });
    expect(readWhatsAppAuthLock(authDir)).toMatchObject({ pid: process.pid, command: "gateway" });
    await runtime.stop();
    running.pop();
    expect(readWhatsAppAuthLock(authDir)).toBeUndefined();
  });

  it.each([
    [
      WA_DISCONNECT.loggedOut,
      /^logged out: run pincer channels login --channel whatsapp --account default$/,
    ],
    [
      WA_DISCONNECT.connectionReplaced,
      /^replaced by another session: another device\/process opened/,
    ],
  ])(
    "close %i is terminal: status says what to do, no reconnect, sends refused",
    async (code, text) => {
      const { fake, test, runtime, authDir } = await start();
      fake.latest("default")!.close(code);
      await test.waitForReport((r) => typeof r.lastError === "string" && text.test(r.lastError));
      await sleep(100); // many link polls: none may reconnect
      expect(fake.socketsOf("default")).toHaveLength(1);
      expect(test.status().connected).toBe(false);
      expect(readWhatsAppAuthLock(authDir)).toBeUndefined();
      const ended = await Promise.race([runtime.ended, sleep(20).then(() => "pending")]);
      expect(ended).toBe("pending");
      const sent = await runtime.send({
        target: { accountId: "default", peer: { kind: "direct", id: "+15551234567" } },
        text: "hi",
      });
      expect(sent).toMatchObject({ ok: false, failure: { retryable: false } });
      expect(!sent.ok && sent.failure.message).toMatch(
        text.source.includes("logged") ? /logged out/ : /replaced/,
      );
      expect(await runtime.probe()).toMatchObject({ ok: false });
      // A new link (channels login writes new creds) brings it back without a restart.
      seedLinkedCreds(authDir, OWN_NUMBER, "Relinked");
      await fake.waitUntil(
        () => fake.socketsOf("default").length === 2,
        "a socket after relinking",
      );
      await test.waitForReport((r) => r.connected === true && r.identity?.name === "Relinked");
    },
  );

  it("a transient close ends the run as failed (the supervisor restarts it)", async () => {
    const { fake, runtime } = await start();
    fake.latest("default")!.close(WA_DISCONNECT.connectionLost);
    const end = await runtime.ended;
    expect(end).toEqual({ failed: true, error: "connection closed (408 connectionLost)" });
    const sent = await runtime.send({
      target: { accountId: "default", peer: { kind: "direct", id: "+15551234567" } },
      text: "later",
    });
    expect(sent).toMatchObject({ ok: false, failure: { retryable: true, code: "not_connected" } });
  });

  it("restartRequired opens a new socket at once, on the same lock", async () => {
    const { fake, test, runtime } = await start();
    fake.latest("default")!.close(WA_DISCONNECT.restartRequired);
    await fake.waitUntil(() => fake.socketsOf("default").length === 2, "the second socket");
    await test.waitForReport((r) => r.connected === true);
    expect(fake.sockets[0]!.ended).toBe(true);
    const ended = await Promise.race([runtime.ended, sleep(20).then(() => "pending")]);
    expect(ended).toBe("pending");
  });

  it("an unlinked account opens no socket and says how to link; it connects once linked", async () => {
    const stateDir = makeTempDir("pincer-wa-");
    const { fake, test, authDir } = await start({ linked: false, stateDir, accountId: "biz" });
    expect(test.status()).toMatchObject({
      connected: false,
      lastError: "not linked: run pincer channels login --channel whatsapp --account biz",
    });
    await sleep(60);
    expect(fake.sockets).toHaveLength(0);
    expect(readWhatsAppAuthLock(authDir)).toBeUndefined();
    seedLinkedCreds(authDir, OWN_NUMBER);
    await test.waitForReport((r) => r.connected === true);
    expect(fake.socketsOf("biz")).toHaveLength(1);
  });

  it("a second opener of the same auth dir is refused naming the dir and the holder pid", async () => {
    const stateDir = makeTempDir("pincer-wa-");
    const first = await start({ stateDir });
    await expect(
      startWhatsAppAccount({ stateDir, fake: first.fake, waitConnected: false }),
    ).rejects.toThrow(
      new RegExp(
        `WhatsApp session ${first.authDir} is already open by pid ${process.pid} \\(gateway\\)`,
      ),
    );
    expect(first.fake.sockets).toHaveLength(1);
  });

  it("creds.update is saved atomically: creds.json 0600 in a 0700 dir, no temp file left", async () => {
    const { fake, authDir } = await start();
    const socket = fake.latest("default")!;
    socket.params.auth.creds.me = { id: "15550001111:7@s.whatsapp.net", name: "Renamed" };
    socket.params.auth.creds.accountSyncCounter = 42;
    socket.emit("creds.update", { accountSyncCounter: 42 });
    await fake.waitUntil(() => {
      const text = readFileSync(join(authDir, "creds.json"), "utf8");
      return JSON.parse(text, BufferJSON.reviver).accountSyncCounter === 42;
    }, "creds saved");
    expect(statSync(join(authDir, "creds.json")).mode & 0o777).toBe(0o600);
    expect(statSync(authDir).mode & 0o777).toBe(0o700);
    expect(readdirSync(authDir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("a QR (WhatsApp does not accept the stored link) means not linked: no socket loop", async () => {
    const fake = new FakeWhatsApp();
    fake.nextBehaviour.push({ qr: "2@abc" });
    const account = await start({ fake, waitConnected: false });
    await account.test.waitForReport(
      (r) => r.lastError?.startsWith("not linked: run pincer") === true,
    );
    await sleep(60);
    expect(fake.sockets).toHaveLength(1);
    expect(fake.sockets[0]!.ended).toBe(true);
  });
});
