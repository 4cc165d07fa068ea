import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../test/helpers/temp-cleanup.js";
import {
  generatePairingCode,
  normalizePairingCode,
  PAIRING_CODE_ALPHABET,
} from "./pairing-code.js";
import { allowFromFilePath, createPairingStore, pairingFilePath } from "./pairing-store.js";

const dir = () => makeTempDir("pincer-pair-");

describe("pairing codes", () => {
  it("are 8 characters of an alphabet without look-alikes", () => {
    const code = generatePairingCode();
    expect(code).toMatch(new RegExp(`^[${PAIRING_CODE_ALPHABET}]{8}$`));
    expect(PAIRING_CODE_ALPHABET).not.toMatch(/[01OIL]/);
    expect(normalizePairingCode(" abcd-efgh ")).toBe("ABCDEFGH");
  });
});

describe("pairing store", () => {
  it("creates one code per sender, at most 3 pending per account, expiring after 1 h", () => {
    let now = Date.parse("2026-01-01T00:00:00Z");
    const store = createPairingStore({ stateDir: dir(), now: () => now });
    const first = store.request({ channel: "telegram", accountId: "default", senderId: "1" });
    expect(first.status).toBe("created");
    expect(store.request({ channel: "telegram", accountId: "default", senderId: "1" })).toEqual({
      status: "pending",
      code: (first as { code: string }).code,
    });
    store.request({ channel: "telegram", accountId: "default", senderId: "2" });
    store.request({ channel: "telegram", accountId: "default", senderId: "3" });
    expect(store.request({ channel: "telegram", accountId: "default", senderId: "4" })).toEqual({
      status: "full",
    });
    expect(store.request({ channel: "telegram", accountId: "work", senderId: "4" }).status).toBe(
      "created",
    );
    now += 60 * 60 * 1000;
    expect(store.list("telegram")).toEqual([]);
    expect(store.request({ channel: "telegram", accountId: "default", senderId: "4" }).status).toBe(
      "created",
    );
  });

  it("approval writes OpenClaw's files (account-scoped allowFrom) and survives a reopen", () => {
    const stateDir = dir();
    const store = createPairingStore({ stateDir });
    const a = store.request({
      channel: "telegram",
      accountId: "default",
      senderId: "1",
      name: "Ann",
    });
    const b = store.request({ channel: "telegram", accountId: "work", senderId: "2" });
    expect(existsSync(pairingFilePath(stateDir, "telegram"))).toBe(true);
    expect(pairingFilePath(stateDir, "telegram")).toBe(
      join(stateDir, "credentials", "telegram-pairing.json"),
    );
    const reopened = createPairingStore({ stateDir });
    expect(reopened.list().map((r) => [r.channel, r.id, r.meta.accountId])).toEqual([
      ["telegram", "1", "default"],
      ["telegram", "2", "work"],
    ]);
    expect(reopened.approve("telegram", (a as { code: string }).code.toLowerCase())?.id).toBe("1");
    expect(reopened.approve("telegram", (b as { code: string }).code)?.id).toBe("2");
    expect(reopened.approve("telegram", "NOPE2345")).toBeUndefined();
    expect(allowFromFilePath(stateDir, "telegram", "work")).toBe(
      join(stateDir, "credentials", "telegram-work-allowFrom.json"),
    );
    expect(
      JSON.parse(readFileSync(allowFromFilePath(stateDir, "telegram", "default"), "utf8")),
    ).toEqual({
      version: 1,
      allowFrom: ["1"],
    });
    expect(createPairingStore({ stateDir }).allowFrom("telegram", "work")).toEqual(["2"]);
    expect(store.list()).toEqual([]);
  });

  it("reject drops the code without allowing the sender", () => {
    const store = createPairingStore({ stateDir: dir() });
    const r = store.request({ channel: "telegram", accountId: "default", senderId: "1" });
    expect(store.reject("telegram", (r as { code: string }).code)?.id).toBe("1");
    expect(store.allowFrom("telegram", "default")).toEqual([]);
    expect(store.list()).toEqual([]);
  });
});
