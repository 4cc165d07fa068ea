// Where the Control UI keeps its credentials: the gateway token in sessionStorage (gone when the
// tab closes; a `#token=` in the address is taken once, stored, and stripped from the address bar
// so it is not bookmarked), and the device token the gateway issued in localStorage (it belongs to
// this browser's device identity and lets the next visit in without the shared token).

const TOKEN_KEY = "pincer.control.token";
const DEVICE_TOKEN_KEY = "pincer.control.deviceToken";

/** Reads and writes one stored secret. */
export interface SecretStore {
  get(): string | undefined;
  set(value: string): void;
  clear(): void;
}

function secretStore(storage: Storage, key: string): SecretStore {
  return {
    get: () => storage.getItem(key) || undefined,
    set: (value) => storage.setItem(key, value),
    clear: () => storage.removeItem(key),
  };
}

/** The gateway token of this tab, over `storage` (the page's sessionStorage). */
export function createTokenStore(storage: Storage): SecretStore {
  return secretStore(storage, TOKEN_KEY);
}

/** The device token of this browser, over `storage` (the page's localStorage). */
export function createDeviceTokenStore(storage: Storage): SecretStore {
  return secretStore(storage, DEVICE_TOKEN_KEY);
}

/** The token in a `#token=…` fragment or in the query of a `#/page?token=…` route, if any. */
export function tokenFromFragment(hash: string): string | undefined {
  const body = hash.replace(/^#/, "");
  const query = body.startsWith("/") ? body.slice(body.indexOf("?") + 1 || body.length) : body;
  const token = new URLSearchParams(query).get("token")?.trim();
  return token ? token : undefined;
}

/** The fragment without its `token` field (a route keeps its page and other query fields). */
export function fragmentWithoutToken(hash: string): string {
  const body = hash.replace(/^#/, "");
  if (!body.startsWith("/")) return "";
  const at = body.indexOf("?");
  if (at < 0) return `#${body}`;
  const query = new URLSearchParams(body.slice(at + 1));
  query.delete("token");
  const rest = query.toString();
  return `#${body.slice(0, at)}${rest ? `?${rest}` : ""}`;
}

/** Moves a `#token=` from the address into the store and rewrites the address without it. */
export function adoptFragmentToken(store: SecretStore, location: Location, history: History): void {
  const token = tokenFromFragment(location.hash);
  if (token === undefined) return;
  store.set(token);
  const hash = fragmentWithoutToken(location.hash);
  history.replaceState(history.state, "", `${location.pathname}${location.search}${hash}`);
}
