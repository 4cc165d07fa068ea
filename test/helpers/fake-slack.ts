// A fake Slack on 127.0.0.1, port 0, for the real @slack/bolt: the Web API (`POST /api/<method>`,
// form or JSON bodies, the token from `Authorization: Bearer`): `auth.test` per bot token,
// `apps.connections.open` per app token answering `ws://127.0.0.1:PORT/link`, `chat.postMessage`,
// `conversations.info` / `conversations.open`, `conversations.replies` (the messages a test put in
// a thread, paged by `limit` / `cursor`, before `latest`), the upload flow (`files.getUploadURLExternal`, the
// bytes to `/upload/<id>`, `files.completeUploadExternal`), every call recorded with its token,
// scripted failures (ratelimited + Retry-After, 5xx, a Slack error code, no answer). The Socket
// Mode side sends `hello`, then the `events_api` envelopes a test injects, and records each
// `{envelope_id}` ack. Slack's http mode is played by `postSlackEvent` (signed, or not).
import { createHmac } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocket, WebSocketServer } from "ws";

/** A bot the fake knows: its tokens and identity. */
export interface FakeSlackBot {
  botToken: string;
  appToken?: string;
  userId: string;
  botId: string;
  user: string;
  team: string;
  teamId: string;
}

/** One recorded Web API call. */
export interface FakeSlackCall {
  method: string;
  token: string | undefined;
  params: Record<string, unknown>;
}

/** A scripted failure of the next call of `method`. */
export type FakeSlackFailure =
  | { method: string; kind: "ratelimited"; retryAfterSeconds: number }
  | { method: string; kind: "status"; status: number }
  | { method: string; kind: "error"; error: string }
  | { method: string; kind: "hang" };

/** A conversation `conversations.info` describes. */
export interface FakeConversation {
  id: string;
  name?: string;
  isIm?: boolean;
  isMpim?: boolean;
}

/** What to inject as one `events_api` envelope. */
export interface FakeEnvelope {
  event: Record<string, unknown>;
  teamId?: string;
  eventId?: string;
  envelopeId?: string;
  retryAttempt?: number;
}

/** The running fake. */
export interface FakeSlack {
  /** `apiUrl` for the account config (ends in `/api/`). */
  readonly apiUrl: string;
  readonly calls: FakeSlackCall[];
  /** Envelope ids acknowledged over Socket Mode, in order. */
  readonly acks: string[];
  /** Uploaded bytes by file id. */
  readonly uploads: Map<string, Buffer>;
  /** Paths of `/files-pri/…` requests, in order, with the token they carried. */
  readonly fileRequests: Array<{ path: string; token: string | undefined }>;
  /**
   * Hosts a private file; its `url_private` (returned) answers the bytes only with `botToken` as
   * the bearer, else Slack's sign-in page (HTML with status 200, as Slack does).
   */
  addFile(params: { name: string; bytes: Buffer; contentType: string; botToken: string }): string;
  addBot(bot: FakeSlackBot): void;
  addConversation(conversation: FakeConversation): void;
  /** Puts messages (Slack message objects with `ts`) in the thread `threadTs` of `channel`. */
  addThreadMessages(channel: string, threadTs: string, messages: Record<string, unknown>[]): void;
  failNext(failure: FakeSlackFailure): void;
  callsOf(method: string): FakeSlackCall[];
  /** Resolves once `count` calls of `method` were made (10 s bound). */
  waitForCalls(method: string, count: number): Promise<FakeSlackCall[]>;
  /** Resolves once a Socket Mode connection of `appToken` said hello (10 s bound). */
  waitForSocket(appToken: string): Promise<void>;
  /** Sends one envelope on `appToken`'s connection; its envelope id. */
  sendEnvelope(appToken: string, envelope: FakeEnvelope): string;
  /** Resolves once `envelopeId` was acknowledged (10 s bound). */
  waitForAck(envelopeId: string): Promise<void>;
  /** Closes `appToken`'s socket from Slack's side. */
  dropSocket(appToken: string): void;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function parseParams(req: IncomingMessage, body: Buffer): Record<string, unknown> {
  const text = body.toString("utf8");
  if (!text) return {};
  if (String(req.headers["content-type"] ?? "").includes("json"))
    return JSON.parse(text) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    out[key] = /^[[{]/.test(value) ? JSON.parse(value) : value;
  }
  return out;
}

/** Answers JSON; true, so a handler can `return json(…)`. */
function json(res: ServerResponse, body: unknown, status = 200, headers = {}): boolean {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
  return true;
}

/** Polls `check` until it holds (10 s bound). */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`fake slack: timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Starts the fake. */
export async function startFakeSlack(): Promise<FakeSlack> {
  const bots: FakeSlackBot[] = [];
  const conversations = new Map<string, FakeConversation>();
  const threads = new Map<string, Record<string, unknown>[]>();
  const calls: FakeSlackCall[] = [];
  const failures: FakeSlackFailure[] = [];
  const acks: string[] = [];
  const uploads = new Map<string, Buffer>();
  const files = new Map<string, { bytes: Buffer; contentType: string; botToken: string }>();
  const fileRequests: Array<{ path: string; token: string | undefined }> = [];
  const sockets = new Map<string, WebSocket>();
  const hung: ServerResponse[] = [];
  let seq = 0;
  let port = 0;
  const nextTs = () => `1700000${String(100 + seq++).padStart(3, "0")}.000100`;

  function answer(call: FakeSlackCall, res: ServerResponse): boolean {
    const bot = bots.find((b) => b.botToken === call.token);
    switch (call.method) {
      case "apps.connections.open": {
        const owner = bots.find((b) => b.appToken === call.token);
        if (!owner) return json(res, { ok: false, error: "invalid_auth" });
        return json(res, {
          ok: true,
          url: `ws://127.0.0.1:${port}/link?app=${encodeURIComponent(call.token ?? "")}`,
        });
      }
      case "auth.test":
        if (!bot) return json(res, { ok: false, error: "invalid_auth" });
        return json(res, {
          ok: true,
          url: "https://fake.slack.com/",
          team: bot.team,
          user: bot.user,
          team_id: bot.teamId,
          user_id: bot.userId,
          bot_id: bot.botId,
        });
      default:
        break;
    }
    if (!bot) return json(res, { ok: false, error: "invalid_auth" });
    switch (call.method) {
      case "chat.postMessage":
        return json(res, { ok: true, channel: call.params.channel, ts: nextTs() });
      case "chat.update":
        return json(res, { ok: true, channel: call.params.channel, ts: call.params.ts });
      case "conversations.info": {
        const known = conversations.get(String(call.params.channel));
        if (!known) return json(res, { ok: false, error: "channel_not_found" });
        return json(res, {
          ok: true,
          channel: {
            id: known.id,
            ...(known.name ? { name: known.name } : {}),
            is_im: known.isIm === true,
            is_mpim: known.isMpim === true,
          },
        });
      }
      case "conversations.replies": {
        const all = threads.get(`${String(call.params.channel)}/${String(call.params.ts)}`) ?? [];
        const latest = call.params.latest === undefined ? undefined : String(call.params.latest);
        const before = all.filter((m) => latest === undefined || String(m.ts) < latest);
        const start = Number(call.params.cursor ?? 0);
        const size = Number(call.params.limit ?? 1000);
        const page = before.slice(start, start + size);
        const more = start + size < before.length;
        return json(res, {
          ok: true,
          messages: page,
          has_more: more,
          response_metadata: { next_cursor: more ? String(start + size) : "" },
        });
      }
      case "conversations.open":
        return json(res, { ok: true, channel: { id: `D${String(call.params.users)}` } });
      case "files.getUploadURLExternal": {
        const id = `F${seq++}`;
        return json(res, {
          ok: true,
          file_id: id,
          upload_url: `http://127.0.0.1:${port}/upload/${id}`,
        });
      }
      case "files.completeUploadExternal":
        return json(res, { ok: true, files: call.params.files });
      default:
        return json(res, { ok: false, error: "unknown_method" });
    }
  }

  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname.startsWith("/files-pri/")) {
      const auth = req.headers.authorization;
      const token = typeof auth === "string" ? auth.replace(/^Bearer /, "") : undefined;
      fileRequests.push({ path: url.pathname, token });
      const file = files.get(url.pathname);
      if (!file) return json(res, { ok: false, error: "file_not_found" }, 404);
      const allowed = token === file.botToken;
      res.writeHead(200, { "content-type": allowed ? file.contentType : "text/html" });
      res.end(allowed ? file.bytes : "<html>sign in to Slack</html>");
      return true;
    }
    if (url.pathname.startsWith("/upload/")) {
      uploads.set(url.pathname.slice("/upload/".length), body);
      res.writeHead(200);
      res.end("OK");
      return true;
    }
    const method = url.pathname.replace(/^\/api\//, "");
    const auth = req.headers.authorization;
    const params = parseParams(req, body);
    const token =
      typeof auth === "string" && auth.startsWith("Bearer ")
        ? auth.slice(7)
        : typeof params.token === "string"
          ? params.token
          : undefined;
    const call: FakeSlackCall = { method, token, params };
    calls.push(call);
    const index = failures.findIndex((f) => f.method === method);
    if (index >= 0) {
      const failure = failures.splice(index, 1)[0]!;
      switch (failure.kind) {
        case "ratelimited":
          return json(res, { ok: false, error: "ratelimited" }, 429, {
            "retry-after": String(failure.retryAfterSeconds),
          });
        case "status":
          return json(res, { ok: false }, failure.status);
        case "error":
          return json(res, { ok: false, error: failure.error });
        case "hang":
          hung.push(res);
          return true;
      }
    }
    return answer(call, res);
  });
  const wss = new WebSocketServer({ noServer: true });
  server.on("upgrade", (req, socket, head) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname !== "/link") {
      socket.destroy();
      return;
    }
    const appToken = url.searchParams.get("app") ?? "";
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.set(appToken, ws);
      ws.on("message", (data) => {
        const message = JSON.parse(data.toString()) as { envelope_id?: string };
        if (message.envelope_id) acks.push(message.envelope_id);
      });
      ws.on("close", () => {
        if (sockets.get(appToken) === ws) sockets.delete(appToken);
      });
      ws.send(
        JSON.stringify({ type: "hello", num_connections: 1, connection_info: { app_id: "A1" } }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  return {
    apiUrl: `http://127.0.0.1:${port}/api/`,
    calls,
    acks,
    uploads,
    fileRequests,
    addFile({ name, bytes, contentType, botToken }) {
      const path = `/files-pri/T1-F${files.size + 1}/${name}`;
      files.set(path, { bytes, contentType, botToken });
      return `http://127.0.0.1:${port}${path}`;
    },
    addBot: (bot) => bots.push(bot),
    addConversation: (c) => conversations.set(c.id, c),
    addThreadMessages(channel, threadTs, messages) {
      const key = `${channel}/${threadTs}`;
      threads.set(key, [...(threads.get(key) ?? []), ...messages]);
    },
    failNext: (failure) => failures.push(failure),
    callsOf: (method) => calls.filter((c) => c.method === method),
    async waitForCalls(method, count) {
      await until(
        () => calls.filter((c) => c.method === method).length >= count,
        `${count} ${method}`,
      );
      return calls.filter((c) => c.method === method);
    },
    waitForSocket: (appToken) =>
      until(() => sockets.get(appToken)?.readyState === WebSocket.OPEN, `socket of ${appToken}`),
    sendEnvelope(appToken, envelope) {
      const ws = sockets.get(appToken);
      if (!ws) throw new Error(`fake slack: no socket for ${appToken}`);
      const envelopeId = envelope.envelopeId ?? `env-${seq++}`;
      ws.send(
        JSON.stringify({
          envelope_id: envelopeId,
          type: "events_api",
          accepts_response_payload: false,
          retry_attempt: envelope.retryAttempt ?? 0,
          retry_reason: envelope.retryAttempt ? "timeout" : "",
          payload: eventCallback(envelope),
        }),
      );
      return envelopeId;
    },
    waitForAck: (envelopeId) => until(() => acks.includes(envelopeId), `ack of ${envelopeId}`),
    dropSocket(appToken) {
      sockets.get(appToken)?.close(1001, "going away");
    },
    async close() {
      for (const res of hung.splice(0)) res.destroy();
      for (const ws of sockets.values()) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The `event_callback` payload of an envelope (also the http mode body). */
export function eventCallback(envelope: Omit<FakeEnvelope, "envelopeId" | "retryAttempt">) {
  return {
    token: "verification-token",
    team_id: envelope.teamId ?? "T1",
    api_app_id: "A1",
    type: "event_callback",
    event_id: envelope.eventId ?? `Ev${Math.random().toString(36).slice(2, 10)}`,
    event_time: 1700000000,
    event: envelope.event,
  };
}

/** Posts a body to the gateway's Slack webhook as Slack would: signed with `secret` (or the given
 *  signature / timestamp), with `X-Slack-Retry-Num` when given. */
export async function postSlackEvent(params: {
  url: string;
  body: unknown;
  secret?: string;
  signature?: string;
  timestampSeconds?: number;
  retryNum?: number;
}): Promise<{ status: number; text: string }> {
  const text = typeof params.body === "string" ? params.body : JSON.stringify(params.body);
  const ts = String(params.timestampSeconds ?? Math.floor(Date.now() / 1000));
  const signature =
    params.signature ??
    `v0=${createHmac("sha256", params.secret ?? "")
      .update(`v0:${ts}:${text}`)
      .digest("hex")}`;
  const res = await fetch(params.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-slack-signature": signature,
      "x-slack-request-timestamp": ts,
      ...(params.retryNum !== undefined
        ? { "x-slack-retry-num": String(params.retryNum), "x-slack-retry-reason": "http_timeout" }
        : {}),
    },
    body: text,
  });
  return { status: res.status, text: await res.text() };
}
