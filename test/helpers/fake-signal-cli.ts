// A fake signal-cli HTTP daemon on 127.0.0.1, port 0: `POST /api/v1/rpc` (JSON-RPC 2.0: send,
// sendTyping, sendReceipt, getAttachment, listGroups, version; every call recorded, scripted
// errors for the next calls), `GET /api/v1/events` (server-sent `receive` events with ids; a
// reconnect with Last-Event-ID gets what came after it, or, like a restarted daemon, everything
// kept), `GET /api/v1/check`. The test pushes envelopes and drops the stream.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A loosely typed JSON object. */
// biome-ignore lint/suspicious/noExplicitAny: tests read JSON-RPC params without a schema type.
export type LooseJson = Record<string, any>;

/** One recorded JSON-RPC call. */
export interface FakeSignalCall {
  method: string;
  params: LooseJson;
}

/** One event stream connection as the fake saw it. */
export interface FakeSignalStream {
  account: string | null;
  lastEventId: string | undefined;
}

/** The running fake. */
export interface FakeSignalCli {
  readonly url: string;
  readonly calls: FakeSignalCall[];
  readonly streams: FakeSignalStream[];
  callsOf(method: string): FakeSignalCall[];
  waitForCall(
    match: (call: FakeSignalCall) => boolean,
    timeoutMs?: number,
  ): Promise<FakeSignalCall>;
  /** Resolves once `count` stream connections were opened. */
  waitForStreams(count: number, timeoutMs?: number): Promise<void>;
  /** Sends a `receive` event to every open stream (and keeps it); its event id. */
  push(envelope: LooseJson, account?: string): number;
  /** Ends every open stream (the daemon dropped it). */
  dropStreams(): void;
  /** Forget event ids, as a restarted daemon does: the next reconnect gets every kept event. */
  forgetEventIds(): void;
  addAttachment(id: string, bytes: Buffer): void;
  /** The next call of `method` answers this JSON-RPC error. */
  failNext(method: string, error: { code: number; message: string }): void;
  close(): Promise<void>;
}

let clock = 1_700_000_000_000;
/** A fresh, increasing Signal timestamp. */
export function nextTimestamp(): number {
  clock += 1_000;
  return clock;
}

/** A DM envelope from `from` (E.164; `uuid` optional), text and optional data message fields. */
export function dmEnvelope(params: {
  from?: string;
  uuid?: string;
  name?: string;
  text?: string;
  timestamp?: number;
  data?: LooseJson;
}): LooseJson {
  const timestamp = params.timestamp ?? nextTimestamp();
  return {
    ...(params.from ? { source: params.from, sourceNumber: params.from } : { source: params.uuid }),
    sourceUuid: params.uuid ?? "3b0f7a52-1c55-4a3c-9b1e-0d0b6c7e2a11",
    sourceName: params.name ?? "Alice",
    sourceDevice: 1,
    timestamp,
    dataMessage: {
      timestamp,
      message: params.text ?? null,
      expiresInSeconds: 0,
      viewOnce: false,
      ...params.data,
    },
  };
}

/** A group envelope: a DM envelope with `groupInfo.groupId`. */
export function groupEnvelope(params: Parameters<typeof dmEnvelope>[0] & { groupId: string }) {
  const envelope = dmEnvelope(params);
  envelope.dataMessage.groupInfo = { groupId: params.groupId, type: "DELIVER" };
  return envelope;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Starts the fake. */
export async function startFakeSignalCli(): Promise<FakeSignalCli> {
  const calls: FakeSignalCall[] = [];
  const streams: FakeSignalStream[] = [];
  const open = new Set<ServerResponse>();
  const kept: Array<{ id: number; text: string }> = [];
  const attachments = new Map<string, Buffer>();
  const failures: Array<{ method: string; error: { code: number; message: string } }> = [];
  const listeners = new Set<() => void>();
  let eventId = 0;
  let sendTimestamp = 1_800_000_000_000;
  let forgotten = false;
  const wake = () => {
    for (const listener of [...listeners]) listener();
  };

  const answer = (call: FakeSignalCall): unknown => {
    switch (call.method) {
      case "send":
        sendTimestamp += 1;
        return { timestamp: sendTimestamp, results: [] };
      case "version":
        return { version: "0.13.99-fake" };
      case "getAttachment": {
        const bytes = attachments.get(String(call.params.id));
        if (!bytes)
          throw { code: -1, message: `Could not find attachment with ID: ${call.params.id}` };
        return { data: bytes.toString("base64") };
      }
      case "listGroups":
        return [];
      default:
        return {};
    }
  };

  const rpc = async (req: IncomingMessage, res: ServerResponse) => {
    const body = JSON.parse(await readBody(req)) as LooseJson;
    const call: FakeSignalCall = { method: String(body.method), params: body.params ?? {} };
    calls.push(call);
    wake();
    const reply = (payload: LooseJson) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: body.id, ...payload }));
    };
    const failAt = failures.findIndex((f) => f.method === call.method);
    if (failAt >= 0) return reply({ error: failures.splice(failAt, 1)[0]!.error });
    try {
      return reply({ result: answer(call) });
    } catch (error) {
      return reply({ error });
    }
  };

  const events = (req: IncomingMessage, res: ServerResponse, url: URL) => {
    const header = req.headers["last-event-id"];
    const lastEventId = typeof header === "string" ? header : undefined;
    streams.push({ account: url.searchParams.get("account"), lastEventId });
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.write(": connected\n\n");
    if (lastEventId !== undefined) {
      const after = forgotten ? 0 : Number(lastEventId);
      for (const event of kept) if (event.id > after) res.write(event.text);
    }
    forgotten = false;
    open.add(res);
    res.on("close", () => open.delete(res));
    wake();
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://fake.invalid");
    if (url.pathname === "/api/v1/check") return res.writeHead(200).end();
    if (url.pathname === "/api/v1/events" && req.method === "GET") return events(req, res, url);
    if (url.pathname === "/api/v1/rpc" && req.method === "POST") {
      rpc(req, res).catch(() => res.writeHead(400).end());
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;

  const waitUntil = (check: () => boolean, what: string, timeoutMs: number) =>
    new Promise<void>((resolve, reject) => {
      const listener = () => {
        if (!check()) return;
        listeners.delete(listener);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        listeners.delete(listener);
        reject(new Error(`fake signal-cli: timed out waiting for ${what}`));
      }, timeoutMs);
      listeners.add(listener);
      listener();
    });

  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    streams,
    callsOf: (method) => calls.filter((c) => c.method === method),
    async waitForCall(match, timeoutMs = 10_000) {
      await waitUntil(() => calls.some(match), "a matching call", timeoutMs);
      return calls.find(match)!;
    },
    waitForStreams: (count, timeoutMs = 10_000) =>
      waitUntil(() => streams.length >= count, `${count} event streams`, timeoutMs),
    push(envelope, account = "+15550000001") {
      eventId += 1;
      const text = `id:${eventId}\nevent:receive\ndata:${JSON.stringify({ envelope, account })}\n\n`;
      kept.push({ id: eventId, text });
      for (const res of open) res.write(text);
      return eventId;
    },
    dropStreams() {
      for (const res of open) res.destroy();
      open.clear();
    },
    forgetEventIds() {
      forgotten = true;
    },
    addAttachment: (id, bytes) => attachments.set(id, bytes),
    failNext: (method, error) => failures.push({ method, error }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of open) res.destroy();
        server.close(() => resolve());
      }),
  };
}
