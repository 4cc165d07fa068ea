import { describe, expect, it } from "vitest";
import {
  adoptFragmentToken,
  createDeviceTokenStore,
  createTokenStore,
  fragmentWithoutToken,
  tokenFromFragment,
} from "./token-store.js";

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

  it("reads a token from a route's query and keeps the route without it", () => {
    expect(tokenFromFragment("#/chat?token=t1&session=x")).toBe("t1");
    expect(tokenFromFragment("#/chat")).toBeUndefined();
    expect(fragmentWithoutToken("#/chat?token=t1&session=x")).toBe("#/chat?session=x");
    expect(fragmentWithoutToken("#/logs?token=t1")).toBe("#/logs");
    expect(fragmentWithoutToken("#token=t1")).toBe("");
  });

  it("keeps the device token apart from the gateway token", () => {
    const storage = memoryStorage();
    createDeviceTokenStore(storage).set("dev");
    expect(createTokenStore(storage).get()).toBeUndefined();
    expect(createDeviceTokenStore(storage).get()).toBe("dev");
  });
});
