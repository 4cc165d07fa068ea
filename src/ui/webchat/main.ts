// WebChat's entry point (bundled to dist/ui/app.js): takes a `#token=` from the address once, then
// starts the app against the gateway that served this page.
import { findElements } from "./elements.js";
import { adoptFragmentToken, createTokenStore } from "./token-store.js";
import { WebChatApp } from "./webchat-app.js";

const WEBCHAT_VERSION = "0.1.0";

function gatewayUrl(location: Location): string {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}`;
}

function main(): void {
  const tokens = createTokenStore(window.sessionStorage);
  adoptFragmentToken(tokens, window.location, window.history);
  new WebChatApp({
    elements: findElements(document),
    tokens,
    storage: window.sessionStorage,
    url: gatewayUrl(window.location),
    version: WEBCHAT_VERSION,
  }).start();
}

main();
