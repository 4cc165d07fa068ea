// The iMessage channel adapter through the imsg bridge (OpenClaw's `channels.imessage`): Pincer
// starts `imsg rpc` on the Mac (JSON-RPC over stdio) and subscribes to new messages
// (`watch.subscribe`, attachments included unless turned off); replies go by `send` (a DM to the
// handle, a group by chat id), the probe is `chats.list`. The rowid of the last message handed on is
// kept in `<stateDir>/channels/imessage/<account>/cursor.json` (after the inbound journal is synced),
// so a restart resumes after it (`since_rowid`) and nothing that arrived meanwhile is lost. The
// process exiting ends the account: the host starts it again with backoff.
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomic } from "../../lib/atomic-write.js";
import {
  type ChannelAccountContext,
  type ChannelAccountEnd,
  type ChannelAccountRuntime,
  type ChannelAdapter,
  createUpdateGuard,
  type InboundMedia,
  type ProbeResult,
  type UpdateConversion,
} from "../index.js";
import { toIMessageInbound } from "./inbound.js";
import { type IMessageRpc, startIMessageRpc } from "./rpc.js";
import { sendIMessage } from "./send.js";
import {
  type IMessageSettings,
  listIMessageAccounts,
  resolveIMessageSettings,
} from "./settings.js";

/** Longest text of one message (OpenClaw's default chunk limit). */
export const IMESSAGE_TEXT_LIMIT = 4000;
/** Pause before a message whose hand-on failed is tried again. */
const RETRY_MS = 1000;

async function probe(rpc: IMessageRpc, now: () => number): Promise<ProbeResult> {
  const started = now();
  const listed = await rpc.call("chats.list", { limit: 1 });
  if (!listed.ok) return { ok: false, error: listed.failure.message };
  return {
    ok: true,
    identity: { id: "imsg", name: "iMessage (imsg)" },
    latencyMs: Math.max(0, now() - started),
  };
}

function readCursor(path: string): number | undefined {
  try {
    const value = (JSON.parse(readFileSync(path, "utf8")) as { sinceRowid?: unknown }).sinceRowid;
    return typeof value === "number" && Number.isInteger(value) ? value : undefined;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new Error(
      `imessage: cursor ${path} is unreadable (${(err as Error).message}); fix or remove it`,
    );
  }
}

/** Small images read from their local path into `data`, so the model sees them. */
async function withImageData(
  media: InboundMedia[],
  settings: IMessageSettings,
): Promise<InboundMedia[]> {
  const out: InboundMedia[] = [];
  for (const item of media) {
    const small = item.size === undefined || item.size <= settings.mediaMaxBytes;
    if (item.kind !== "image" || !item.fileId || !small) {
      out.push(item);
      continue;
    }
    const bytes = await readFile(item.fileId).catch(() => undefined);
    out.push(
      bytes && bytes.length <= settings.mediaMaxBytes
        ? { ...item, data: bytes.toString("base64") }
        : item,
    );
  }
  return out;
}

async function startAccount(
  context: ChannelAccountContext,
  now: () => number,
): Promise<ChannelAccountRuntime> {
  const resolved = resolveIMessageSettings({
    config: context.config,
    accountId: context.accountId,
  });
  if (!resolved.ok) {
    context.report({ connected: false, lastError: resolved.error, lastErrorAt: now() });
    throw new Error(resolved.error);
  }
  const { settings } = resolved;
  const accountDir = join(context.stateDir, "channels", "imessage", context.accountId);
  const cursorPath = join(accountDir, "cursor.json");
  const since = readCursor(cursorPath);
  const guard = createUpdateGuard({
    log: context.log,
    report: context.report,
    submit: context.receive,
    now,
    signal: context.signal,
  });
  // Messages are handed on one at a time, in order; the cursor moves only past handed-on ones.
  let queue: Promise<void> = Promise.resolve();
  const handle = (message: unknown) => {
    queue = queue
      .then(async () => {
        for (;;) {
          let rowid: number | undefined;
          const verdict = await guard.handle({
            id: String((message as { id?: unknown })?.id ?? "?"),
            update: message,
            convert: async (update): Promise<UpdateConversion> => {
              const converted = toIMessageInbound({
                message: update,
                accountId: context.accountId,
                now,
              });
              rowid = converted.rowid;
              if (converted.kind !== "inbound" || !settings.includeAttachments) {
                if (converted.kind === "inbound") converted.inbound.media = [];
                return converted;
              }
              converted.inbound.media = await withImageData(converted.inbound.media, settings);
              return converted;
            },
          });
          if (verdict.advance) {
            if (rowid !== undefined) {
              context.syncInbound();
              writeFileAtomic(cursorPath, JSON.stringify({ sinceRowid: rowid }));
            }
            context.report({ lastInboundAt: now() });
            return;
          }
          if (verdict.outcome === "aborted" || context.signal.aborted) return;
          await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
        }
      })
      .catch((err: unknown) => {
        context.log.error({ error: String(err) }, "imessage: a message could not be handed on");
      });
  };
  const env = context.env.PATH ? context.env : { ...context.env, PATH: process.env.PATH };
  const rpc = startIMessageRpc({
    settings,
    env,
    log: context.log,
    onNotification: (method, params) => {
      if (method === "message") handle((params as { message?: unknown } | undefined)?.message);
    },
  });
  const subscribed = await rpc.call("watch.subscribe", {
    attachments: settings.includeAttachments,
    ...(since !== undefined ? { since_rowid: since } : {}),
  });
  if (!subscribed.ok) {
    await rpc.stop();
    const error = `imessage: watch.subscribe failed: ${subscribed.failure.message}`;
    context.report({ connected: false, lastError: error, lastErrorAt: now() });
    throw new Error(error);
  }
  context.report({ connected: true, identity: { id: "imsg", name: "iMessage (imsg)" } });
  context.log.info({ cliPath: settings.cliPath, sinceRowid: since }, "imessage: watching");
  const ended: Promise<ChannelAccountEnd> = rpc.exited.then((reason) => {
    if (reason === "stopped") return { failed: false };
    context.log.warn({ error: reason }, "imessage: imsg gone");
    context.report({ connected: false, lastError: reason, lastErrorAt: now() });
    return { failed: true, error: reason };
  });
  return {
    ended,
    async send(message) {
      const result = await sendIMessage({
        rpc,
        message,
        settings,
        outboxDir: join(accountDir, "outbox"),
        now,
      });
      if (result.ok) context.report({ lastOutboundAt: now() });
      else context.log.warn({ ...result.failure }, "imessage: send failed");
      return result;
    },
    probe: () => probe(rpc, now),
    async stop() {
      await rpc.stop();
      await queue;
      context.report({ connected: false });
    },
  };
}

/** Builds the iMessage adapter (one `imsg rpc` per account). */
export function createIMessageAdapter(options: { now?: () => number } = {}): ChannelAdapter {
  const now = options.now ?? Date.now;
  return {
    id: "imessage",
    label: "iMessage (imsg)",
    capabilities: {
      maxTextLength: IMESSAGE_TEXT_LIMIT,
      markdown: "plain",
      typing: false,
      threads: false,
      media: true,
      nativeMentions: false,
      edits: false,
    },
    listAccounts: listIMessageAccounts,
    validateAccount(config) {
      const result = resolveIMessageSettings({ config });
      return result.ok ? undefined : result.error;
    },
    start: (context) => startAccount(context, now),
  };
}
