import { describe, expect, it } from "vitest";
import { adoptFragmentToken, createTokenStore, tokenFromFragment } from "./token-store.js";

/** sessionStorage's surface over a Map. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => items.delete(key),
    setItem: (key, value) => items.set(key, value),
  } as Storage;
}

describe("token store", () => {
  it("reads a token from the fragment, ignoring other fields and blanks", () => {
    expect(tokenFromFragment("#token=abc%20def&x=1")).toBe("abc def");
    expect(tokenFromFragment("#x=1")).toBeUndefined();
    expect(tokenFromFragment("#token=")).toBeUndefined();
    expect(tokenFromFragment("")).toBeUndefined();
  });

  it("adopts a fragment token once and rewrites the address without it", () => {
    const store = createTokenStore(memoryStorage());
    const replaced: string[] = [];
    const history = {
      state: null,
      replaceState: (_s: unknown, _t: string, url: string) => replaced.push(url),
    };
    const location = { hash: "#token=s3cret", pathname: "/", search: "?a=1" };
    adoptFragmentToken(store, location as Location, history as unknown as History);
    expect(store.get()).toBe("s3cret");
    expect(replaced).toEqual(["/?a=1"]);
    adoptFragmentToken(store, { ...location, hash: "" } as Location, history as unknown as History);
    expect(replaced).toHaveLength(1);
    store.clear();
    expect(store.get()).toBeUndefined();
  });
});
