// A fake Discord on 127.0.0.1 (port 0) for driving the real discord.js offline: the REST routes the
// adapter uses under `/api/v10` (gateway/bot, users/@me, channel messages with JSON or multipart
// bodies, message edits, typing, DM channel opening), every call recorded; scripted failures (429 with retry_after,
// 5xx, 401, hangs) for the next matching calls; and the Gateway WebSocket (JSON, no compression):
// HELLO → IDENTIFY (token and intents checked; 4004 / 4014 closes) → READY (guilds as unavailable
// stubs) → GUILD_CREATE per guild (channels, threads, roles, members) → dispatches a test injects.
// Heartbeats are acknowledged; attachments are served at CDN-like URLs.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type WebSocket, WebSocketServer } from "ws";

/** A user as Discord serializes it. */
export interface FakeDiscordUser {
  id: string;
  username: string;
  bot?: boolean;
  global_name?: string | null;
}

/** A guild the fake sends in GUILD_CREATE: channels (threads included), roles, members. */
export interface FakeGuild {
  id: string;
  name: string;
  channels: Array<{ id: string; type: number; name: string; parent_id?: string }>;
  roles?: Array<{ id: string; name: string }>;
  /** Members (the bot's own one gives its roles). */
  members?: Array<{ user: FakeDiscordUser; roles: string[] }>;
}

/** One recorded REST call. Multipart bodies: `body` is the payload_json, `files` the parts. */
export interface FakeDiscordCall {
  method: string;
  /** Path below `/api/v10` (`/channels/1/messages`). */
  path: string;
  auth: string | undefined;
  body: Record<string, unknown>;
  files: Array<{ field: string; name: string; size: number }>;
}

/** A scripted REST failure for the next call(s) matching `method` and `path` (a prefix). */
export interface FakeDiscordFailure {
  method?: string;
  path: string;
  kind: "rate-limit" | "status" | "hang";
  /** `rate-limit`: seconds in `retry_after` and `Retry-After`. */
  retryAfter?: number;
  /** `status`: the code (500, 401, 403…). */
  status?: number;
  /** How many calls fail (default 1). */
  times?: number;
}

/** The running fake; close it in `afterEach`. */
export interface FakeDiscord {
  /** Pass as the account's `apiRoot` (`http://127.0.0.1:PORT/api`). */
  apiRoot: string;
  bot: FakeDiscordUser;
  token: string;
  calls: FakeDiscordCall[];
  /** Heartbeats (op 1) received, each acknowledged with op 11. */
  heartbeats: number;
  /** IDENTIFY payloads received. */
  identifies: Array<Record<string, unknown>>;
  /** Intent bits the bot is not allowed (IDENTIFY with any → close 4014). */
  disallowedIntents: number;
  fail(failure: FakeDiscordFailure): void;
  /** Serves `bytes` at a CDN-like URL (no auth), for attachments; returns the URL. */
  serveAttachment(name: string, bytes: Buffer): string;
  /** Sends a dispatch on every open session; resolves once written. */
  dispatch(event: string, data: unknown): void;
  /** Closes every session with `code` (discord.js resumes or gives up, by code). */
  closeSessions(code: number): void;
  /** Resolves once a session got READY and its GUILD_CREATEs (n-th session: counts from 1). */
  waitForReady(nth?: number): Promise<void>;
  /** Resolves once a session resumed (op 6 answered with RESUMED). */
  waitForResume(): Promise<void>;
  /** Resolves once `count` heartbeats arrived. */
  waitForHeartbeats(count: number): Promise<void>;
  /** Resolves with the first recorded call matching, waiting for one. */
  waitForCall(match: (call: FakeDiscordCall) => boolean): Promise<FakeDiscordCall>;
  callsTo(path: string, method?: string): FakeDiscordCall[];
  close(): Promise<void>;
}

/** Options of {@link startFakeDiscord}. */
export interface FakeDiscordOptions {
  token: string;
  bot: FakeDiscordUser;
  guilds?: FakeGuild[];
  /** HELLO's heartbeat interval (default 41250 ms, Discord's). */
  heartbeatIntervalMs?: number;
}

const HEARTBEAT_INTERVAL_MS = 41_250;

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function parseBody(req: IncomingMessage, raw: Buffer) {
  const type = req.headers["content-type"] ?? "";
  const files: FakeDiscordCall["files"] = [];
  if (type.startsWith("multipart/form-data")) {
    const form = await new Response(raw, { headers: { "content-type": type } }).formData();
    let body: Record<string, unknown> = {};
    for (const [field, value] of form.entries()) {
      if (typeof value === "string") {
        if (field === "payload_json") body = JSON.parse(value) as Record<string, unknown>;
      } else files.push({ field, name: value.name, size: value.size });
    }
    return { body, files };
  }
  const text = raw.toString("utf8");
  return { body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, files };
}

function json(res: ServerResponse, status: number, body: unknown, headers = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

/** Starts the fake on a free port. */
export async function startFakeDiscord(options: FakeDiscordOptions): Promise<FakeDiscord> {
  const calls: FakeDiscordCall[] = [];
  const failures: FakeDiscordFailure[] = [];
  const sessions = new Set<WebSocket>();
  const waiters = new Set<() => void>();
  const hanging = new Set<ServerResponse>();
  const attachments = new Map<string, Buffer>();
  let readyCount = 0;
  let resumeCount = 0;
  let nextId = 900_000_000_000_000_000n;
  const notify = () => {
    for (const waiter of [...waiters]) waiter();
  };
  const until = (done: () => boolean) =>
    new Promise<void>((resolve) => {
      if (done()) return resolve();
      const waiter = () => {
        if (!done()) return;
        waiters.delete(waiter);
        resolve();
      };
      waiters.add(waiter);
    });

  const takeFailure = (method: string, path: string) => {
    const index = failures.findIndex(
      (f) => (!f.method || f.method === method) && path.startsWith(f.path),
    );
    if (index < 0) return undefined;
    const failure = failures[index]!;
    failure.times = (failure.times ?? 1) - 1;
    if (failure.times <= 0) failures.splice(index, 1);
    return failure;
  };

  const route = (method: string, path: string, body: Record<string, unknown>) => {
    if (method === "GET" && path === "/gateway/bot") {
      return {
        status: 200,
        body: {
          url: `ws://127.0.0.1:${port}`,
          shards: 1,
          session_start_limit: { total: 1000, remaining: 999, reset_after: 0, max_concurrency: 1 },
        },
      };
    }
    if (method === "GET" && path === "/users/@me") return { status: 200, body: options.bot };
    if (method === "POST" && path === "/users/@me/channels") {
      return { status: 200, body: { id: `dm-${String(body.recipient_id)}`, type: 1 } };
    }
    const messages = /^\/channels\/([^/]+)\/messages$/.exec(path);
    if (method === "POST" && messages) {
      nextId += 1n;
      const id = String(nextId);
      const message = {
        id,
        channel_id: messages[1],
        content: body.content ?? "",
        author: options.bot,
        timestamp: new Date().toISOString(),
      };
      return { status: 200, body: message };
    }
    const edited = /^\/channels\/([^/]+)\/messages\/(\d+)$/.exec(path);
    if (method === "PATCH" && edited) {
      const message = { id: edited[2], channel_id: edited[1], content: body.content ?? "" };
      return { status: 200, body: { ...message, author: options.bot } };
    }
    if (method === "POST" && /^\/channels\/[^/]+\/typing$/.test(path)) {
      return { status: 204, body: undefined };
    }
    return { status: 404, body: { message: "404: Not Found", code: 0 } };
  };

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://x");
      const prefix = "/api/v10";
      const path = url.pathname.startsWith(prefix)
        ? url.pathname.slice(prefix.length)
        : url.pathname;
      const method = req.method ?? "GET";
      const attachment = attachments.get(url.pathname);
      if (attachment) {
        res.writeHead(200, { "content-type": "application/octet-stream" });
        res.end(attachment);
        return;
      }
      const { body, files } = await parseBody(req, await readBody(req));
      const auth = req.headers.authorization;
      calls.push({ method, path, auth, body, files });
      notify();
      const failure = takeFailure(method, path);
      if (failure?.kind === "hang") {
        hanging.add(res);
        return;
      }
      if (failure?.kind === "rate-limit") {
        const seconds = failure.retryAfter ?? 1;
        return json(
          res,
          429,
          { message: "You are being rate limited.", retry_after: seconds, global: false },
          { "retry-after": String(seconds) },
        );
      }
      if (failure?.kind === "status") {
        const status = failure.status ?? 500;
        return json(res, status, {
          message: `scripted ${status}`,
          code: status === 401 ? 0 : 50001,
        });
      }
      if (auth !== `Bot ${options.token}`) {
        return json(res, 401, { message: "401: Unauthorized", code: 0 });
      }
      const answer = route(method, path, body);
      if (answer.status === 204) {
        res.writeHead(204);
        res.end();
        return;
      }
      json(res, answer.status, answer.body);
    })().catch((err: unknown) => {
      res.writeHead(500);
      res.end(String(err));
    });
  });

  const wss = new WebSocketServer({ server });
  const identifies: Array<Record<string, unknown>> = [];
  let sequence = 0;
  const fake: FakeDiscord = {
    apiRoot: "",
    bot: options.bot,
    token: options.token,
    calls,
    identifies,
    heartbeats: 0,
    disallowedIntents: 0,
    fail: (failure) => failures.push(failure),
    serveAttachment(name, bytes) {
      attachments.set(`/attachments/${name}`, bytes);
      return `http://127.0.0.1:${port}/attachments/${name}`;
    },
    dispatch(event, data) {
      for (const ws of sessions) {
        sequence += 1;
        ws.send(JSON.stringify({ op: 0, t: event, s: sequence, d: data }));
      }
    },
    closeSessions(code) {
      for (const ws of sessions) ws.close(code, "scripted close");
    },
    waitForReady: (nth = 1) => until(() => readyCount >= nth),
    waitForResume: () => until(() => resumeCount > 0),
    waitForHeartbeats: (count) => until(() => fake.heartbeats >= count),
    async waitForCall(match) {
      let found: FakeDiscordCall | undefined;
      await until(() => {
        found = calls.find(match);
        return found !== undefined;
      });
      return found!;
    },
    callsTo: (path, method = "POST") => calls.filter((c) => c.path === path && c.method === method),
    async close() {
      for (const res of hanging) res.destroy();
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const send = (ws: WebSocket, payload: Record<string, unknown>) => {
    if (payload.op === 0) {
      sequence += 1;
      payload.s = sequence;
    }
    ws.send(JSON.stringify(payload));
  };

  wss.on("connection", (ws, req) => {
    const query = new URL(req.url ?? "/", "http://x").searchParams;
    if (query.get("encoding") !== "json" || query.has("compress")) {
      ws.close(4002, "the fake speaks JSON without compression only");
      return;
    }
    const interval = options.heartbeatIntervalMs ?? HEARTBEAT_INTERVAL_MS;
    send(ws, { op: 10, d: { heartbeat_interval: interval } });
    ws.on("message", (raw) => {
      const packet = JSON.parse(String(raw)) as { op: number; d: Record<string, unknown> };
      if (packet.op === 1) {
        fake.heartbeats += 1;
        notify();
        return send(ws, { op: 11 });
      }
      if (packet.op === 6) {
        sessions.add(ws);
        send(ws, { op: 0, t: "RESUMED", d: {} });
        resumeCount += 1;
        notify();
        return;
      }
      if (packet.op !== 2) return;
      identifies.push(packet.d);
      if (packet.d.token !== options.token) return ws.close(4004, "Authentication failed.");
      if ((Number(packet.d.intents) & fake.disallowedIntents) !== 0) {
        return ws.close(4014, "Disallowed intent(s).");
      }
      sessions.add(ws);
      const guilds = options.guilds ?? [];
      send(ws, {
        op: 0,
        t: "READY",
        d: {
          v: 10,
          user: options.bot,
          guilds: guilds.map((g) => ({ id: g.id, unavailable: true })),
          session_id: `session-${identifies.length}`,
          resume_gateway_url: `ws://127.0.0.1:${port}`,
          application: { id: options.bot.id, flags: 0 },
        },
      });
      for (const guild of guilds) send(ws, { op: 0, t: "GUILD_CREATE", d: guildCreate(guild) });
      readyCount += 1;
      notify();
    });
    ws.on("close", () => sessions.delete(ws));
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  fake.apiRoot = `http://127.0.0.1:${port}/api`;
  return fake;
}

function guildCreate(guild: FakeGuild): Record<string, unknown> {
  const isThread = (type: number) => type === 10 || type === 11 || type === 12;
  const everyone = { id: guild.id, name: "@everyone" };
  return {
    id: guild.id,
    name: guild.name,
    unavailable: false,
    owner_id: "1",
    member_count: guild.members?.length ?? 0,
    joined_at: new Date(0).toISOString(),
    roles: [everyone, ...(guild.roles ?? [])].map((role, position) => ({
      ...role,
      permissions: "0",
      position,
      color: 0,
      hoist: false,
      managed: false,
      mentionable: true,
    })),
    channels: guild.channels
      .filter((c) => !isThread(c.type))
      .map((c, position) => ({ ...c, guild_id: guild.id, position })),
    threads: guild.channels
      .filter((c) => isThread(c.type))
      .map((c) => ({
        ...c,
        guild_id: guild.id,
        thread_metadata: { archived: false, locked: false, auto_archive_duration: 1440 },
      })),
    members: (guild.members ?? []).map((m) => ({ ...m, joined_at: new Date(0).toISOString() })),
    emojis: [],
    stickers: [],
    features: [],
    voice_states: [],
    presences: [],
    stage_instances: [],
    guild_scheduled_events: [],
  };
}
