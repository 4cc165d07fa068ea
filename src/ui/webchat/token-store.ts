// Where WebChat keeps the gateway token: sessionStorage (gone when the tab closes). A `#token=` in
// the address is taken once, stored, and stripped from the address bar so it is not bookmarked.

const TOKEN_KEY = "pincer.webchat.token";

/** Reads and writes the token of this tab. */
export interface TokenStore {
  get(): string | undefined;
  set(token: string): void;
  clear(): void;
}

/** A token store over `storage` (the page's sessionStorage). */
export function createTokenStore(storage: Storage): TokenStore {
  return {
    get: () => storage.getItem(TOKEN_KEY) || undefined,
    set: (token) => storage.setItem(TOKEN_KEY, token),
    clear: () => storage.removeItem(TOKEN_KEY),
  };
}

/** The token in a `#token=…` fragment (other fragment fields are ignored), if any. */
export function tokenFromFragment(hash: string): string | undefined {
  const fields = new URLSearchParams(hash.replace(/^#/, ""));
  const token = fields.get("token")?.trim();
  return token ? token : undefined;
}

/** Moves a `#token=` from the address into the store and rewrites the address without it. */
export function adoptFragmentToken(store: TokenStore, location: Location, history: History): void {
  const token = tokenFromFragment(location.hash);
  if (token === undefined) return;
  store.set(token);
  history.replaceState(history.state, "", `${location.pathname}${location.search}`);
}
