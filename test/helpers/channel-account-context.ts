// A `ChannelAccountContext` for adapter tests: a temp state dir, recorded inbound messages, status
// reports and log lines, and a `receive` whose behaviour a test can script (e.g. reject once).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type {
  ChannelAccountConfig,
  ChannelAccountContext,
  ChannelAccountStatus,
  ChannelInbound,
} from "../../src/channels/types.js";
import { createEntryLogger, type LogLevel } from "../../src/lib/logger.js";

/** A recorded log line. */
export interface RecordedLog {
  level: LogLevel;
  fields: Record<string, unknown>;
  message: string;
}

/** The context plus what it recorded. */
export interface TestAccountContext {
  context: ChannelAccountContext;
  received: ChannelInbound[];
  reports: Array<Partial<ChannelAccountStatus>>;
  logs: RecordedLog[];
  /** Every `syncInbound` call, in order: how many messages were received by then. */
  syncs: number[];
  /** Runs inside each `syncInbound` (default: nothing), e.g. to look at the disk at that moment. */
  onSyncInbound: () => void;
  /** The account's status: every report merged in order. */
  status(): Partial<ChannelAccountStatus>;
  /** Replaces what `receive` does after recording (default: resolve). */
  onReceive: (message: ChannelInbound) => Promise<void>;
  /** Resolves once `count` messages were received (counting earlier ones). */
  waitForReceived(count: number): Promise<ChannelInbound[]>;
  /** Resolves once a report matches. */
  waitForReport(match: (report: Partial<ChannelAccountStatus>) => boolean): Promise<void>;
  abort(): void;
}

/** Inputs for {@link createTestAccountContext}. */
export interface TestAccountContextParams {
  channel: string;
  accountId: string;
  config: ChannelAccountConfig;
  /** Reuse a state dir across restarts; a fresh temp dir otherwise. */
  stateDir?: string;
  env?: Record<string, string | undefined>;
}

/** Makes a temp state dir; remove it with {@link removeStateDir}. */
export function makeStateDir(): string {
  return mkdtempSync(join(tmpdir(), "pincer-channel-"));
}

/** Removes a state dir made by {@link makeStateDir}. */
export function removeStateDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Builds a recording context for one account. */
export function createTestAccountContext(params: TestAccountContextParams): TestAccountContext {
  const controller = new AbortController();
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of [...listeners]) listener();
  };
  const waitUntil = (done: () => boolean) =>
    new Promise<void>((resolve) => {
      if (done()) return resolve();
      const listener = () => {
        if (!done()) return;
        listeners.delete(listener);
        resolve();
      };
      listeners.add(listener);
    });
  const test: TestAccountContext = {
    received: [],
    reports: [],
    logs: [],
    syncs: [],
    onSyncInbound: () => {},
    onReceive: async () => {},
    context: {
      channel: params.channel,
      accountId: params.accountId,
      config: params.config,
      stateDir: params.stateDir ?? makeStateDir(),
      env: params.env ?? {},
      log: createEntryLogger(({ level, fields, msg }) => {
        test.logs.push({ level, fields, message: msg });
      }),
      async receive(message) {
        await test.onReceive(message);
        test.received.push(message);
        notify();
      },
      syncInbound() {
        test.syncs.push(test.received.length);
        test.onSyncInbound();
      },
      report(update) {
        test.reports.push(update);
        notify();
      },
      signal: controller.signal,
    },
    status: () => Object.assign({}, ...test.reports),
    async waitForReceived(count) {
      await waitUntil(() => test.received.length >= count);
      return test.received.slice(0, count);
    },
    waitForReport: (match) => waitUntil(() => test.reports.some(match)),
    abort: () => controller.abort(),
  };
  return test;
}
