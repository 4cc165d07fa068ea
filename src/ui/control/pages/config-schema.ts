// Reading the config JSON Schema (`config.schema`, generated from Pincer's TypeBox shapes) for the
// Config page's form: `$ref` resolution, compat marks (`x-pincer: "compat"` = accepted, not
// implemented), and which kind of input a node becomes.

/** A JSON Schema node as the generated schema has them. */
export type SchemaNode = {
  type?: string;
  $ref?: string;
  const?: unknown;
  anyOf?: SchemaNode[];
  properties?: Record<string, SchemaNode>;
  patternProperties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  minimum?: number;
  maximum?: number;
  description?: string;
  "x-pincer"?: string;
  "x-pincer-note"?: string;
};

/** What input a schema node becomes. */
export type FieldKind =
  | { kind: "string"; secret: boolean }
  | { kind: "number"; integer: boolean; minimum?: number; maximum?: number }
  | { kind: "boolean" }
  | { kind: "enum"; options: Array<{ value: string; compat: boolean }> }
  | { kind: "strings" }
  | { kind: "object"; properties: Record<string, SchemaNode> }
  | { kind: "map"; values: SchemaNode }
  | { kind: "other" };

/** Follows `#/$defs/...` references against the root schema. */
export function resolve(
  root: SchemaNode & { $defs?: Record<string, SchemaNode> },
  node: SchemaNode,
): SchemaNode {
  let current = node;
  for (let hops = 0; current.$ref && hops < 16; hops++) {
    const name = current.$ref.replace(/^#\/\$defs\//, "");
    const target = root.$defs?.[name];
    if (!target) break;
    const { $ref: _ref, ...rest } = current;
    current = { ...target, ...rest };
  }
  return current;
}

/** Whether a node is compat-marked (accepted in the file, not implemented by Pincer). */
export function isCompat(node: SchemaNode): boolean {
  return node["x-pincer"] === "compat";
}

const SECRET_KEY = /(token|password|secret|apikey|api_key|authorization|credentials?|passphrase)$/i;

/** The input kind of `node` (already resolved), for a key named `key`. */
export function fieldKind(root: SchemaNode, node: SchemaNode, key: string): FieldKind {
  if (node.anyOf) {
    const branches = node.anyOf.map((b) => resolve(root, b));
    if (branches.every((b) => typeof b.const === "string")) {
      return {
        kind: "enum",
        options: branches.map((b) => ({ value: String(b.const), compat: isCompat(b) })),
      };
    }
    // A secret input: a string, or a SecretRef object (edited in the raw editor).
    const text = branches.find((b) => b.type === "string" && b.const === undefined);
    if (text) return { kind: "string", secret: SECRET_KEY.test(key) };
    return { kind: "other" };
  }
  switch (node.type) {
    case "string":
      return { kind: "string", secret: SECRET_KEY.test(key) };
    case "integer":
    case "number":
      return {
        kind: "number",
        integer: node.type === "integer",
        ...(node.minimum !== undefined ? { minimum: node.minimum } : {}),
        ...(node.maximum !== undefined ? { maximum: node.maximum } : {}),
      };
    case "boolean":
      return { kind: "boolean" };
    case "array": {
      const items = node.items ? resolve(root, node.items) : undefined;
      return items?.type === "string" && items.const === undefined
        ? { kind: "strings" }
        : { kind: "other" };
    }
    case "object": {
      if (node.properties) return { kind: "object", properties: node.properties };
      const values = node.patternProperties ? Object.values(node.patternProperties)[0] : undefined;
      return values ? { kind: "map", values } : { kind: "other" };
    }
    default:
      return { kind: "other" };
  }
}
