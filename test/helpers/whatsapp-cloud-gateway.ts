// A real gateway (port 0, temp state, the built-in adapter loaders) with WhatsApp Cloud API
// accounts against the fake Graph API: `biz` (agent main) and `ops` (agent work), DMs open, plus a
// binding of one E.164 number to agent `vip`. Webhook URLs point at the gateway's own HTTP port.
import type { OpenClawConfig } from "../../src/protocol/config/index.js";
import { type FakeGraphApi, startFakeGraphApi } from "./fake-graph-api.js";
import { createGatewaySandbox, type GatewaySandbox } from "./gateway-sandbox.js";
import { makeTempDir } from "./temp-cleanup.js";

/** One cloud account of the test config. */
export interface CloudTestAccount {
  accountId: string;
  phoneNumberId: string;
  token: string;
  appSecret: string;
  verifyToken: string;
}

/** The two accounts. */
export const BIZ: CloudTestAccount = {
  accountId: "biz",
  phoneNumberId: "1234567890",
  token: "tok-biz",
  appSecret: "secret-biz",
  verifyToken: "verify-biz",
};
export const OPS: CloudTestAccount = {
  accountId: "ops",
  phoneNumberId: "2223334444",
  token: "tok-ops",
  appSecret: "secret-ops",
  verifyToken: "verify-ops",
};
/** The number bound to agent `vip`, as a binding spells it and as a `wa_id`. */
export const VIP_NUMBER = "+15551230001";
export const VIP_WA_ID = "15551230001";

/** A started setup. */
export interface CloudGateway {
  box: GatewaySandbox;
  graph: FakeGraphApi;
  /** The webhook URL of an account on the gateway. */
  webhookUrl(account: CloudTestAccount): string;
}

function accountConfig(account: CloudTestAccount, graph: FakeGraphApi, extra = {}) {
  return {
    transport: "cloud",
    phoneNumberId: account.phoneNumberId,
    accessToken: account.token,
    appSecret: account.appSecret,
    verifyToken: account.verifyToken,
    apiRoot: graph.apiRoot,
    dmPolicy: "open",
    allowFrom: ["*"],
    ...extra,
  };
}

/** Polls until the account's webhook answers (its account started), 10 s bound. */
export async function waitForWebhook(url: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await fetch(`${url}?hub.mode=probe`);
    await res.text();
    if (res.status !== 404) return;
    if (Date.now() > deadline) throw new Error(`webhook ${url} never came up`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Starts the fake Graph API and the gateway; `biz` / `ops` override account settings. */
export async function startCloudGateway(
  params: {
    biz?: Record<string, unknown>;
    ops?: Record<string, unknown>;
    /** Model of agent main (default the sandbox's fake/m1; fake/vision sees images). */
    mainModel?: string;
    /** Accounts whose webhook must be up before this resolves (default both). */
    waitFor?: CloudTestAccount[];
  } = {},
): Promise<CloudGateway> {
  const graph = await startFakeGraphApi();
  for (const [account, name] of [
    [BIZ, "Biz Inc"],
    [OPS, "Ops Desk"],
  ] as const) {
    graph.addPhoneNumber({
      id: account.phoneNumberId,
      token: account.token,
      display: `+1 555 000 ${account.phoneNumberId.slice(-4)}`,
      name,
    });
  }
  const box = await createGatewaySandbox({
    config: () => ({
      channels: {
        whatsapp: {
          accounts: {
            biz: accountConfig(BIZ, graph, params.biz),
            ops: accountConfig(OPS, graph, params.ops),
          },
        },
      } as OpenClawConfig["channels"],
      agents: {
        list: [
          { id: "main", ...(params.mainModel ? { model: params.mainModel } : {}) },
          { id: "work", workspace: makeTempDir("pincer-wa-work-") },
          { id: "vip", workspace: makeTempDir("pincer-wa-vip-") },
        ],
      },
      bindings: [
        // Without accountId a binding matches the default account only: "*" is every account.
        {
          agentId: "vip",
          match: { channel: "whatsapp", accountId: "*", peer: { kind: "direct", id: VIP_NUMBER } },
        },
        { agentId: "work", match: { channel: "whatsapp", accountId: "ops" } },
      ],
    }),
  });
  const webhookUrl = (account: CloudTestAccount) =>
    `http://127.0.0.1:${box.gw.port}/webhooks/whatsapp/${account.accountId}`;
  for (const account of params.waitFor ?? [BIZ, OPS]) await waitForWebhook(webhookUrl(account));
  return { box, graph, webhookUrl };
}

/** Polls `check` until it holds (5 s bound: generous on a loaded machine). */
export async function waitUntil(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The transcript of a session as JSON text. */
export function transcriptText(box: GatewaySandbox, agentId: string, sessionKey: string): string {
  const read = box.gw.core.runtime.stores.forAgent(agentId).readTranscript(sessionKey);
  return JSON.stringify(read?.entries ?? []);
}
