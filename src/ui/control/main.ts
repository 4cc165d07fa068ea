// The Control UI's entry point (bundled to dist/ui/app.js): defines the shell and page elements,
// takes a `#token=` from the address once, loads the browser's device identity, and connects to the
// gateway that served this page.
import type { WebSocketConstructor } from "../../client/types.js";
import { ControlApp } from "./app-shell.js";
import { UiConnection } from "./connection.js";
import { browserDeviceSigner, loadDeviceIdentity } from "./device-identity.js";
import { AgentsPage } from "./pages/agents-page.js";
import { ChannelsPage } from "./pages/channels-page.js";
import { ChatPage } from "./pages/chat-page.js";
import { ConfigPage } from "./pages/config-page.js";
import { DevicesPage } from "./pages/devices-page.js";
import { LogsPage } from "./pages/logs-page.js";
import { OverviewPage } from "./pages/overview-page.js";
import { SessionsPage } from "./pages/sessions-page.js";
import { applyTheme, storedTheme } from "./theme.js";
import { adoptFragmentToken, createDeviceTokenStore, createTokenStore } from "./token-store.js";

const CONTROL_UI_VERSION = "0.1.0";

/** Every custom element of the UI, by tag. */
const ELEMENTS: ReadonlyArray<[string, CustomElementConstructor]> = [
  ["pc-app", ControlApp],
  ["pc-overview-page", OverviewPage],
  ["pc-chat-page", ChatPage],
  ["pc-sessions-page", SessionsPage],
  ["pc-agents-page", AgentsPage],
  ["pc-channels-page", ChannelsPage],
  ["pc-devices-page", DevicesPage],
  ["pc-config-page", ConfigPage],
  ["pc-logs-page", LogsPage],
];

function gatewayUrl(location: Location): string {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}`;
}

async function main(): Promise<void> {
  for (const [tag, element] of ELEMENTS) {
    if (!customElements.get(tag)) customElements.define(tag, element);
  }
  const tokens = createTokenStore(window.sessionStorage);
  adoptFragmentToken(tokens, window.location, window.history);
  const app = document.createElement("pc-app") as ControlApp;
  app.storage = window.localStorage;
  app.theme = storedTheme(window.localStorage);
  applyTheme({ root: document.documentElement, storage: window.localStorage, choice: app.theme });
  // WebCrypto exists only in secure contexts (https, or http on localhost).
  const subtle = window.isSecureContext ? window.crypto.subtle : undefined;
  const identity = await loadDeviceIdentity({ indexedDB: window.indexedDB, subtle });
  const device =
    identity && subtle
      ? {
          id: identity.deviceId,
          signer: browserDeviceSigner({ identity, subtle, now: () => Date.now() }),
        }
      : undefined;
  const connection = new UiConnection({
    url: gatewayUrl(window.location),
    tokens,
    deviceTokens: createDeviceTokenStore(window.localStorage),
    device,
    WebSocketImpl: window.WebSocket as unknown as WebSocketConstructor,
    clientVersion: CONTROL_UI_VERSION,
    platform: "web",
    onStatus: (status) => app.setStatus(status),
  });
  app.connection = connection;
  document.body.replaceChildren(app);
  connection.start();
}

void main();
