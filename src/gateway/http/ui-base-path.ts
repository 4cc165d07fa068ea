// `gateway.controlUi.basePath`: the URL prefix the Control UI is served under (e.g. `/ui` → the page
// at `/ui/`, its files under `/ui/…`; `/ui` itself redirects to `/ui/`, and every other path,
// `/` included, is not the UI). Empty, `/` or unset serves it at the root, as before.

const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/** A normalised base path: "" (the root) or `/a/b`; or why the configured value is refused. */
export type UiBasePath = { ok: true; path: string } | { ok: false; message: string };

/** Normalises the configured value: a leading `/`, no trailing `/`, plain path segments only. */
export function normalizeUiBasePath(value: unknown): UiBasePath {
  if (value === undefined || value === null) return { ok: true, path: "" };
  if (typeof value !== "string") {
    return { ok: false, message: "gateway.controlUi.basePath must be a string such as /ui" };
  }
  const segments = value.trim().split("/").filter(Boolean);
  const bad = segments.find((segment) => !SEGMENT.test(segment));
  if (bad !== undefined) {
    return {
      ok: false,
      message: `gateway.controlUi.basePath ${JSON.stringify(value)} has an unusable segment ${JSON.stringify(bad)} (letters, digits, . _ - only)`,
    };
  }
  return { ok: true, path: segments.length === 0 ? "" : `/${segments.join("/")}` };
}

/** Where a request path stands against the base: a UI file path, the bare base, or outside. */
export type UiPathMatch =
  | { kind: "ui"; path: string }
  | { kind: "redirect"; location: string }
  | { kind: "outside" };

/** Maps a request path onto the UI folder (`/ui/app.js` → `/app.js` under base `/ui`). */
export function matchUiPath(base: string, path: string): UiPathMatch {
  if (base === "") return { kind: "ui", path };
  if (path === base) return { kind: "redirect", location: `${base}/` };
  if (path.startsWith(`${base}/`)) return { kind: "ui", path: path.slice(base.length) };
  return { kind: "outside" };
}
