// The Control UI's pages and its hash routes: `#/<page>?a=b` names a page and its query (so every
// page is deep-linkable and back/forward work); an empty or unknown route is the Overview.

/** Every page, in navigation order: route name and the nav entry's label. */
export const PAGES = [
  { name: "overview", label: "Overview" },
  { name: "chat", label: "Chat" },
  { name: "sessions", label: "Sessions" },
  { name: "agents", label: "Agents" },
  { name: "channels", label: "Channels" },
  { name: "devices", label: "Devices" },
  { name: "config", label: "Config" },
  { name: "logs", label: "Logs" },
] as const;

/** A page's route name. */
export type PageName = (typeof PAGES)[number]["name"];

/** A parsed route: the page and its query. */
export interface Route {
  page: PageName;
  query: URLSearchParams;
}

function isPage(name: string): name is PageName {
  return PAGES.some((page) => page.name === name);
}

/** Parses `location.hash` (`#/chat?session=x`); anything unknown is the Overview. */
export function parseRoute(hash: string): Route {
  const body = hash.replace(/^#\/?/, "");
  const at = body.indexOf("?");
  const name = decodeURIComponent(at < 0 ? body : body.slice(0, at)).replace(/\/+$/, "");
  const query = new URLSearchParams(at < 0 ? "" : body.slice(at + 1));
  return { page: isPage(name) ? name : "overview", query };
}

/** The hash of a page with a query: `routeHash("sessions", { agent: "main" })` → `#/sessions?agent=main`. */
export function routeHash(page: string, query: Record<string, string> = {}): string {
  const search = new URLSearchParams(query).toString();
  return `#/${encodeURIComponent(page)}${search ? `?${search}` : ""}`;
}
