import { describe, expect, it } from "vitest";
import { serializeStore } from "./store-file.js";
import type { SessionEntry } from "./types.js";

function entry(i: number): SessionEntry {
  return {
    sessionId: `s${i}`,
    updatedAt: i,
    origin: { provider: "telegram", from: `t:${i}` },
    note: "a\nb",
  };
}

describe("serializeStore", () => {
  it("prints exactly what JSON.stringify(store, null, 2) prints, across chunks", async () => {
    const entries: Array<[string, SessionEntry]> = [];
    for (let i = 0; i < 4_500; i++) entries.push([`agent:main:telegram:group:${i}`, entry(i)]);
    const text = (await serializeStore(entries)).toString("utf8");
    expect(text).toBe(JSON.stringify(Object.fromEntries(entries), null, 2));
  });

  it("keeps file order for integer-like and special keys", async () => {
    const entries: Array<[string, SessionEntry]> = [
      ["zeta", entry(1)],
      ["42", entry(2)],
      ["__proto__", entry(3)],
    ];
    const text = (await serializeStore(entries)).toString("utf8");
    const parsed = JSON.parse(text);
    expect(Object.hasOwn(parsed, "__proto__") && parsed["42"].sessionId === "s2").toBe(true);
    expect(text.indexOf('"zeta"')).toBeLessThan(text.indexOf('"42"'));
    expect(text.indexOf('"42"')).toBeLessThan(text.indexOf('"__proto__"'));
    expect((await serializeStore([])).toString()).toBe("{}");
  });
});
