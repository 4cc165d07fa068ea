// Starts a real Telegram adapter account (grammY) against the fake Bot API with a recording context;
// `stopAll` stops every account a test started and removes their state dirs.
import { createTelegramAdapter } from "../../src/channels/telegram/index.js";
import type { ChannelAccountConfig, ChannelAccountRuntime } from "../../src/channels/types.js";
import {
  createTestAccountContext,
  makeStateDir,
  removeStateDir,
  type TestAccountContext,
} from "./channel-account-context.js";
import type { FakeTelegram } from "./fake-telegram.js";

/** A started account: its runtime and recording context. */
export interface StartedTelegramAccount {
  runtime: ChannelAccountRuntime;
  recorder: TestAccountContext;
}

/** Inputs for {@link TelegramAccounts.start}. */
export interface StartTelegramAccountParams {
  token: string;
  accountId?: string;
  stateDir?: string;
  config?: ChannelAccountConfig;
  /** Waits for getMe (connected) before returning; default true. */
  waitConnected?: boolean;
}

/** Starts accounts against one fake and cleans them up. */
export interface TelegramAccounts {
  start(params: StartTelegramAccountParams): Promise<StartedTelegramAccount>;
  stopAll(): Promise<void>;
}

/** A short pause before a rejected update is polled again, so error-path tests do not wait seconds. */
export const TEST_RECEIVE_RETRY_DELAY_MS = 20;

/** Creates a starter bound to `fake`. */
export function telegramAccounts(fake: FakeTelegram): TelegramAccounts {
  const running: ChannelAccountRuntime[] = [];
  const dirs: string[] = [];
  return {
    async start(params) {
      const stateDir = params.stateDir ?? makeStateDir();
      if (!params.stateDir) dirs.push(stateDir);
      const recorder = createTestAccountContext({
        channel: "telegram",
        accountId: params.accountId ?? "default",
        config: { botToken: params.token, apiRoot: fake.apiRoot, ...params.config },
        stateDir,
      });
      const adapter = createTelegramAdapter({ receiveRetryDelayMs: TEST_RECEIVE_RETRY_DELAY_MS });
      const runtime = await adapter.start(recorder.context);
      running.push(runtime);
      if (params.waitConnected !== false) {
        await recorder.waitForReport((r) => r.connected === true);
      }
      return { runtime, recorder };
    },
    async stopAll() {
      await Promise.all(running.splice(0).map((runtime) => runtime.stop()));
      for (const dir of dirs.splice(0)) removeStateDir(dir);
    },
  };
}
