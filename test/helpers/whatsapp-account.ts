// One WhatsApp Web account started through the adapter against the fake socket, with a recording
// context (temp state dir): what the web tests of the transport share.
import { join } from "node:path";
import type { ChannelAccountRuntime } from "../../src/channels/types.js";
import { createWhatsAppAdapter } from "../../src/channels/whatsapp/index.js";
import { createTestAccountContext, type TestAccountContext } from "./channel-account-context.js";
import { FakeWhatsApp, seedLinkedCreds } from "./fake-whatsapp-socket.js";
import { makeTempDir } from "./temp-cleanup.js";

/** The account's own number in these tests. */
export const OWN_NUMBER = "+15550001111";

/** A started account. */
export interface StartedWhatsAppAccount {
  fake: FakeWhatsApp;
  test: TestAccountContext;
  runtime: ChannelAccountRuntime;
  authDir: string;
}

/** Inputs for {@link startWhatsAppAccount}. */
export interface StartWhatsAppAccountParams {
  config?: Record<string, unknown>;
  accountId?: string;
  /** Seed linked creds for {@link OWN_NUMBER} (default true). */
  linked?: boolean;
  fake?: FakeWhatsApp;
  stateDir?: string;
  /** Wait for the connected report (default: when linked). */
  waitConnected?: boolean;
}

/** Starts one account (linked by default) and waits until it reports connected. */
export async function startWhatsAppAccount(
  params: StartWhatsAppAccountParams = {},
): Promise<StartedWhatsAppAccount> {
  const fake = params.fake ?? new FakeWhatsApp();
  const accountId = params.accountId ?? "default";
  const stateDir = params.stateDir ?? makeTempDir("pincer-wa-");
  const authDir = join(stateDir, "credentials", "whatsapp", accountId);
  if (params.linked !== false) seedLinkedCreds(authDir, OWN_NUMBER);
  const adapter = createWhatsAppAdapter({
    web: { socketFactory: fake.factory, linkPollMs: 20, receiveRetryDelayMs: 5 },
  });
  const test = createTestAccountContext({
    channel: "whatsapp",
    accountId,
    config: params.config ?? {},
    stateDir,
  });
  const runtime = await adapter.start(test.context);
  if (params.waitConnected ?? params.linked !== false)
    await test.waitForReport((r) => r.connected === true);
  return { fake, test, runtime, authDir };
}
