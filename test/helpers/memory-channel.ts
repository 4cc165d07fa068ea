// A real in-memory ChannelAdapter for tests: accounts start and stop like a platform's, `inject`
// hands a message to the pipeline (as a platform update would), every send is recorded, and sends
// can be scripted to fail (retryable or not).
import type {
  ChannelAccountContext,
  ChannelAdapter,
  ChannelCapabilities,
  ChannelInbound,
  OutboundMessage,
  OutboundTarget,
  SendFailure,
  SendResult,
} from "../../src/channels/types.js";

/** One recorded send (or typing indicator). */
export interface RecordedSend {
  accountId: string;
  message: OutboundMessage;
  result: SendResult;
  at: number;
}

/** An inbound message as a test writes it: ids and defaults filled in. */
export type InjectedMessage = Partial<ChannelInbound> & {
  accountId?: string;
  peer: ChannelInbound["peer"];
  sender?: ChannelInbound["sender"];
  text: string;
};

/** The memory channel and its controls. */
export interface MemoryChannel {
  adapter: ChannelAdapter;
  /** Sends accepted (ok) so far, in order. */
  readonly sent: RecordedSend[];
  /** Every send attempt, failed ones included. */
  readonly attempts: RecordedSend[];
  readonly typing: Array<{ accountId: string; target: OutboundTarget }>;
  /** Accounts running now. */
  running(): string[];
  /** How many times each account was started. */
  readonly starts: Record<string, number>;
  /** Resolves once the account is running. */
  waitForAccount(accountId: string, timeoutMs?: number): Promise<void>;
  /** Feeds a message to the pipeline of a running account; resolves when it was accepted. */
  inject(message: InjectedMessage): Promise<ChannelInbound>;
  /** The next `count` sends fail with `failure`. */
  failNext(count: number, failure: SendFailure): void;
  /** Resolves once `count` messages were sent (ok). */
  waitForSent(count: number, timeoutMs?: number): Promise<RecordedSend[]>;
}

const DEFAULT_CAPABILITIES: ChannelCapabilities = {
  maxTextLength: 4096,
  markdown: "markdown",
  typing: true,
  threads: true,
  media: true,
  nativeMentions: true,
};

async function waitUntil(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Creates a memory channel named `id` (default `memory`). */
export function createMemoryChannel(
  options: {
    id?: string;
    capabilities?: Partial<ChannelCapabilities>;
    requireToken?: boolean;
  } = {},
): MemoryChannel {
  const id = options.id ?? "memory";
  const contexts = new Map<string, ChannelAccountContext>();
  const sent: RecordedSend[] = [];
  const attempts: RecordedSend[] = [];
  const typing: MemoryChannel["typing"] = [];
  const failures: SendFailure[] = [];
  const starts: Record<string, number> = {};
  let counter = 0;
  let nextMessageId = 1;

  const adapter: ChannelAdapter = {
    id,
    label: `Memory (${id})`,
    capabilities: { ...DEFAULT_CAPABILITIES, ...options.capabilities },
    listAccounts(channelConfig) {
      const accounts = channelConfig.accounts as Record<string, unknown> | undefined;
      return accounts && Object.keys(accounts).length > 0 ? Object.keys(accounts) : ["default"];
    },
    validateAccount(config) {
      if (options.requireToken && typeof config.botToken !== "string") {
        return "botToken is missing";
      }
      return undefined;
    },
    async start(context) {
      contexts.set(context.accountId, context);
      starts[context.accountId] = (starts[context.accountId] ?? 0) + 1;
      context.report({ connected: true, identity: { id: `bot-${context.accountId}` } });
      const accountId = context.accountId;
      return {
        async send(message): Promise<SendResult> {
          const failure = failures.shift();
          const result: SendResult = failure
            ? { ok: false, failure }
            : { ok: true, receipt: { messageId: `out-${++counter}` } };
          const record = { accountId, message, result, at: Date.now() };
          attempts.push(record);
          if (result.ok) sent.push(record);
          return result;
        },
        async sendTyping(target) {
          typing.push({ accountId, target });
        },
        async probe() {
          return { ok: true, identity: { id: `bot-${accountId}` }, latencyMs: 1 };
        },
        async stop() {
          if (contexts.get(accountId) === context) contexts.delete(accountId);
        },
      };
    },
  };

  return {
    adapter,
    sent,
    attempts,
    typing,
    starts,
    running: () => [...contexts.keys()],
    waitForAccount: (accountId, timeoutMs = 5000) =>
      waitUntil(() => contexts.has(accountId), timeoutMs, `account ${accountId}`),
    async inject(input) {
      const accountId = input.accountId ?? "default";
      const context = contexts.get(accountId);
      if (!context) throw new Error(`account ${accountId} is not running`);
      const message: ChannelInbound = {
        channel: id,
        accountId,
        messageId: input.messageId ?? `in-${nextMessageId++}`,
        timestamp: input.timestamp ?? Date.now(),
        sender: input.sender ?? { id: input.peer.kind === "direct" ? input.peer.id : "u1" },
        mentions: [],
        mentionedSelf: false,
        media: [],
        ...input,
      };
      await context.receive(message);
      return message;
    },
    failNext(count, failure) {
      for (let i = 0; i < count; i++) failures.push(failure);
    },
    async waitForSent(count, timeoutMs = 10_000) {
      await waitUntil(() => sent.length >= count, timeoutMs, `${count} sent messages`);
      return sent.slice(0, count);
    },
  };
}
