// Mapping templates: `{{expr}}` placeholders filled from the request, as OpenClaw's hook mappings do.
// `expr` is a path into the JSON payload (`messages[0].subject`, or written `payload.messages[0]`),
// `headers.<name>`, `query.<name>`, `path` (the sub-path after hooks.path) or `now` (ISO time).
// A missing value renders as ""; an object or list as its JSON.

/** What a template can read. */
export interface TemplateContext {
  payload: unknown;
  headers: Record<string, string | string[] | undefined>;
  query: URLSearchParams;
  path: string;
  now: Date;
}

const SEGMENT = /([^.[\]]+)|\[(\d+)\]/g;

/** Reads `a.b[0].c` from a value; undefined when any step is missing. */
export function readPath(value: unknown, path: string): unknown {
  let at = value;
  for (const match of path.matchAll(SEGMENT)) {
    const key = match[1] ?? Number(match[2]);
    if (at === null || typeof at !== "object") return undefined;
    if (typeof key === "string" && !Object.hasOwn(at, key)) return undefined;
    at = (at as Record<string | number, unknown>)[key];
  }
  return at;
}

function show(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

/** The value of one expression. */
export function templateValue(expr: string, ctx: TemplateContext): unknown {
  const e = expr.trim();
  if (e === "path") return ctx.path;
  if (e === "now") return ctx.now.toISOString();
  if (e === "payload") return ctx.payload;
  if (e.startsWith("payload.") || e.startsWith("payload[")) {
    return readPath(ctx.payload, e.slice("payload".length).replace(/^\./, ""));
  }
  if (e.startsWith("headers.")) {
    const header = ctx.headers[e.slice("headers.".length).toLowerCase()];
    return Array.isArray(header) ? header.join(", ") : header;
  }
  if (e.startsWith("query.")) return ctx.query.get(e.slice("query.".length)) ?? undefined;
  return readPath(ctx.payload, e);
}

/** Fills every `{{expr}}` of a template. */
export function renderTemplate(template: string, ctx: TemplateContext): string {
  return template.replace(/\{\{\s*([^{}]+?)\s*\}\}/g, (_, expr: string) =>
    show(templateValue(expr, ctx)),
  );
}
