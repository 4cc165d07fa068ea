import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  BufferJSON,
  DisconnectReason,
  initAuthCreds,
  useMultiFileAuthState,
} from "@whiskeysockets/baileys";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../test/helpers/temp-cleanup.js";
import {
  authFileName,
  hasLinkedCreds,
  openWhatsAppAuthStore,
  resolveWhatsAppAuthDir,
} from "./auth-state.js";
import { WA_DISCONNECT } from "./socket-seam.js";

const mode = (path: string) => statSync(path).mode & 0o777;

describe("WhatsApp auth dir", () => {
  it("defaults to <stateDir>/credentials/whatsapp/<account>; authDir overrides with ~ expanded", () => {
    const base = { stateDir: "/s", env: { HOME: "/home/u" } };
    expect(resolveWhatsAppAuthDir({ ...base, config: {}, accountId: "biz" })).toEqual({
      ok: true,
      authDir: "/s/credentials/whatsapp/biz",
    });
    expect(
      resolveWhatsAppAuthDir({ ...base, config: { authDir: "~/wa/personal" }, accountId: "x" }),
    ).toEqual({ ok: true, authDir: "/home/u/wa/personal" });
    expect(resolveWhatsAppAuthDir({ ...base, config: {}, accountId: "../x" }).ok).toBe(false);
  });

  it("writes creds and keys in Baileys' layout, 0600 files in a 0700 dir, no temp files left", async () => {
    const dir = join(makeTempDir("pincer-wa-auth-"), "acct");
    const store = await openWhatsAppAuthStore(dir);
    expect(mode(dir)).toBe(0o700);
    expect(store.linked()).toBe(false);
    store.state.creds.me = { id: "15551234567:3@s.whatsapp.net", name: "Me" };
    await store.saveCreds();
    await store.state.keys.set({
      "pre-key": { "1": { public: Buffer.from([1, 2]), private: Buffer.from([3, 4]) } },
      session: { "15551234567:3.0": Buffer.from("sess") as never },
    });
    expect(store.linked()).toBe(true);
    const files = readdirSync(dir).sort();
    expect(files).toEqual(["creds.json", "pre-key-1.json", "session-15551234567-3.0.json"]);
    for (const file of files) expect(mode(join(dir, file))).toBe(0o600);
    expect(authFileName("a/b:c")).toBe("a__b-c");
    expect(await hasLinkedCreds(dir)).toBe(true);
    // Baileys' own store reads what we wrote, and we read what it writes.
    const baileys = await useMultiFileAuthState(dir);
    expect(baileys.state.creds.me?.id).toBe("15551234567:3@s.whatsapp.net");
    expect(baileys.state.creds.noiseKey.private).toEqual(store.state.creds.noiseKey.private);
    const keys = await baileys.state.keys.get("pre-key", ["1"]);
    expect(Buffer.from(keys["1"]!.public)).toEqual(Buffer.from([1, 2]));
    await baileys.state.keys.set({
      "pre-key": { "2": { public: Buffer.from([9]), private: Buffer.from([8]) } },
    });
    const reopened = await openWhatsAppAuthStore(dir);
    expect(Buffer.from((await reopened.state.keys.get("pre-key", ["2"]))["2"]!.public)).toEqual(
      Buffer.from([9]),
    );
    // Removal by a null value.
    await reopened.state.keys.set({ "pre-key": { "2": null } });
    expect(existsSync(join(dir, "pre-key-2.json"))).toBe(false);
  });

  it("keeps the last of concurrent writes of one file and refuses a torn creds.json", async () => {
    const dir = makeTempDir("pincer-wa-auth-");
    const store = await openWhatsAppAuthStore(dir);
    const writes = [];
    for (let i = 0; i < 20; i++) {
      store.state.creds.nextPreKeyId = i;
      writes.push(store.saveCreds());
    }
    await Promise.all(writes);
    const saved = JSON.parse(readFileSync(join(dir, "creds.json"), "utf8"), BufferJSON.reviver);
    expect(saved.nextPreKeyId).toBe(19);
    writeFileSync(join(dir, "creds.json"), '{"noiseKey":');
    await expect(openWhatsAppAuthStore(dir)).rejects.toThrow(/creds\.json is not valid JSON/);
    expect(readFileSync(join(dir, "creds.json"), "utf8")).toBe('{"noiseKey":');
  });

  it("unlinked creds (fresh from initAuthCreds) do not count as linked", async () => {
    const dir = makeTempDir("pincer-wa-auth-");
    writeFileSync(join(dir, "creds.json"), JSON.stringify(initAuthCreds(), BufferJSON.replacer));
    expect(await hasLinkedCreds(dir)).toBe(false);
    expect(await hasLinkedCreds(join(dir, "missing"))).toBe(false);
  });
});

describe("disconnect codes", () => {
  it("are Baileys' DisconnectReason numbers", () => {
    for (const [name, code] of Object.entries(WA_DISCONNECT)) {
      expect(DisconnectReason[name as keyof typeof DisconnectReason]).toBe(code);
    }
  });
});
