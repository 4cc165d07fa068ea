// The WebChat URL the gateway prints when ready, and the JSON-only console of `gateway --json`.
import { describe, expect, it } from "vitest";
import { jsonLinesSink } from "../logging/json-console.js";
import { webchatUrl } from "./webchat-url.js";

describe("webchatUrl", () => {
  const on = { enabled: undefined, uiAvailable: true };
  it("uses the bound port and a browsable host", () => {
    expect(webchatUrl({ ...on, host: "127.0.0.1", port: 43123 })).toBe("http://127.0.0.1:43123/");
    expect(webchatUrl({ ...on, host: "0.0.0.0", port: 1 })).toBe("http://127.0.0.1:1/");
    expect(webchatUrl({ ...on, host: "::", port: 2 })).toBe("http://[::1]:2/");
    expect(webchatUrl({ ...on, host: "100.90.1.2", port: 3 })).toBe("http://100.90.1.2:3/");
    expect(webchatUrl({ ...on, host: "fd00::5", port: 4 })).toBe("http://[fd00::5]:4/");
  });

  it("is undefined when the UI is off or not built; only `false` turns it off", () => {
    const at = { host: "127.0.0.1", port: 5 };
    expect(webchatUrl({ ...at, enabled: false, uiAvailable: true })).toBeUndefined();
    expect(webchatUrl({ ...at, enabled: undefined, uiAvailable: false })).toBeUndefined();
    expect(webchatUrl({ ...at, enabled: true, uiAvailable: true })).toBe("http://127.0.0.1:5/");
    expect(webchatUrl({ ...at, enabled: "no", uiAvailable: true })).toBe("http://127.0.0.1:5/");
  });
});

describe("jsonLinesSink", () => {
  it("passes JSON objects through and wraps every other line as a record", () => {
    const out: string[] = [];
    const write = jsonLinesSink({
      write: (t) => out.push(t),
      level: "error",
      now: () => 0,
      pid: 7,
    });
    write('{"level":"info","msg":"kept"}\n');
    write("\u001b[31mfirst\u001b[39m\nsecond\n\n");
    write("[1,2]\n{not json}\n");
    expect(out.every((line) => line.endsWith("\n"))).toBe(true);
    const records = out.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records).toEqual([
      { level: "info", msg: "kept" },
      { level: "error", time: "1970-01-01T00:00:00.000Z", pid: 7, msg: "first" },
      { level: "error", time: "1970-01-01T00:00:00.000Z", pid: 7, msg: "second" },
      { level: "error", time: "1970-01-01T00:00:00.000Z", pid: 7, msg: "[1,2]" },
      { level: "error", time: "1970-01-01T00:00:00.000Z", pid: 7, msg: "{not json}" },
    ]);
  });

  it("puts gateway.controlUi.basePath in the address, and gives none for a refused one", () => {
    const at = { host: "127.0.0.1", port: 5, enabled: true, uiAvailable: true };
    expect(webchatUrl({ ...at, basePath: "/ui/" })).toBe("http://127.0.0.1:5/ui/");
    expect(webchatUrl({ ...at, basePath: "/" })).toBe("http://127.0.0.1:5/");
    expect(webchatUrl({ ...at, basePath: "/a b" })).toBeUndefined();
  });
});
