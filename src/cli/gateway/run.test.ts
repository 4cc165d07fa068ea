import { describe, expect, it } from "vitest";
import { resolveListenHost } from "./run.js";

describe("resolveListenHost", () => {
  it("maps each bind mode to a listen address", () => {
    const none = () => undefined;
    expect(resolveListenHost({ bind: "loopback", customHost: undefined })).toBe("127.0.0.1");
    expect(resolveListenHost({ bind: "lan", customHost: undefined })).toBe("0.0.0.0");
    expect(resolveListenHost({ bind: "custom", customHost: "10.1.2.3" })).toBe("10.1.2.3");
    expect(
      resolveListenHost({
        bind: "tailnet",
        customHost: undefined,
        findTailnet: () => "100.90.1.2",
      }),
    ).toBe("100.90.1.2");
    expect(() =>
      resolveListenHost({ bind: "tailnet", customHost: undefined, findTailnet: none }),
    ).toThrow(/no Tailscale address/);
    expect(() => resolveListenHost({ bind: "custom", customHost: undefined })).toThrow(
      /--bind custom needs --host/,
    );
  });
});
