// The form's reading of the config schema: $ref resolution, compat marks, input kinds, on the real
// generated schema (so a schema change that the form cannot show is caught here).
import { describe, expect, it } from "vitest";
import { CONFIG_JSON_SCHEMA } from "../../../protocol/config/schema.generated.js";
import { fieldKind, isCompat, resolve, type SchemaNode } from "./config-schema.js";

const root = CONFIG_JSON_SCHEMA as unknown as SchemaNode;
const at = (...keys: string[]) =>
  keys.reduce((node, key) => resolve(root, node.properties?.[key] ?? {}), root);

describe("config schema for the form", () => {
  it("reads gateway.port as a bounded integer and gateway.bind as a choice with compat options", () => {
    expect(fieldKind(root, at("gateway", "port"), "port")).toEqual({
      kind: "number",
      integer: true,
      minimum: 1,
      maximum: 65535,
    });
    const bind = fieldKind(root, at("gateway", "bind"), "bind");
    expect(bind.kind).toBe("enum");
    if (bind.kind !== "enum") return;
    expect(bind.options).toContainEqual({ value: "loopback", compat: false });
    expect(bind.options).toContainEqual({ value: "auto", compat: true });
  });

  it("resolves $refs, marks compat keys and finds secrets, maps and string lists", () => {
    expect(isCompat(at("gateway", "auth", "allowTailscale"))).toBe(true);
    expect(fieldKind(root, at("gateway", "auth", "token"), "token")).toEqual({
      kind: "string",
      secret: true,
    });
    expect(fieldKind(root, at("gateway", "trustedProxies"), "trustedProxies").kind).toBe("strings");
    expect(fieldKind(root, at("models", "providers"), "providers").kind).toBe("map");
    expect(fieldKind(root, at("agents", "list"), "list").kind).toBe("other");
  });
});
