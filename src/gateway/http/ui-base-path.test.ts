import { describe, expect, it } from "vitest";
import { matchUiPath, normalizeUiBasePath } from "./ui-base-path.js";

describe("gateway.controlUi.basePath", () => {
  it("normalises the configured prefix", () => {
    expect(normalizeUiBasePath(undefined)).toEqual({ ok: true, path: "" });
    expect(normalizeUiBasePath("/")).toEqual({ ok: true, path: "" });
    expect(normalizeUiBasePath("ui/")).toEqual({ ok: true, path: "/ui" });
    expect(normalizeUiBasePath(" /open/claw// ")).toEqual({ ok: true, path: "/open/claw" });
  });

  it("refuses a prefix that is not plain path segments, naming the key", () => {
    const dots = normalizeUiBasePath("/../etc");
    expect(dots.ok).toBe(false);
    expect(!dots.ok && dots.message).toContain("gateway.controlUi.basePath");
    expect(normalizeUiBasePath("/a b").ok).toBe(false);
    expect(normalizeUiBasePath(42).ok).toBe(false);
  });

  it("maps request paths under the prefix onto the UI folder", () => {
    expect(matchUiPath("", "/app.js")).toEqual({ kind: "ui", path: "/app.js" });
    expect(matchUiPath("/ui", "/ui/")).toEqual({ kind: "ui", path: "/" });
    expect(matchUiPath("/ui", "/ui/app.js")).toEqual({ kind: "ui", path: "/app.js" });
    expect(matchUiPath("/ui", "/ui")).toEqual({ kind: "redirect", location: "/ui/" });
    expect(matchUiPath("/ui", "/")).toEqual({ kind: "outside" });
    expect(matchUiPath("/ui", "/uix/app.js")).toEqual({ kind: "outside" });
  });
});
