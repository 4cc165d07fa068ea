// A fake Telegram Bot API on 127.0.0.1 (port 0) for driving grammY offline: `/bot<token>/<method>` with
// JSON or multipart bodies, `/file/bot<token>/<path>` downloads, long-polled getUpdates that drops
// updates below the offset, several bots on one server, scripted failures (error statuses, raw garbage
// bodies, dropped connections, hangs; for the next calls or for one bot until healed), raw malformed
// update items, the command menu (setMyCommands checked as Telegram does), every call recorded.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type FakeMenuCommand, setMyCommands } from "./fake-telegram-commands.js";

/** A bot the fake knows: its token and what getMe answers. */
export interface FakeBot {
  id: number;
  username: string;
  first_name?: string;
}

/** One recorded API call; multipart file parts are listed in `files` (field → name and size). */
export interface FakeTelegramCall {
  token: string;
  method: string;
  params: Record<string, unknown>;
  files: Record<string, { fileName: string; size: number }>;
}

/**
 * A scripted failure. `hang` never answers (a timeout); `body` answers a raw body (garbage, or JSON
 * whose `result` has the wrong shape); `destroy` closes the connection without answering.
 */
export type FakeTelegramFailure =
  | { kind: "status"; code: number; description: string; retryAfter?: number }
  | { kind: "body"; status?: number; body: string }
  | { kind: "destroy" }
  | { kind: "hang" };

/** A file the fake serves through getFile and the download route. */
export interface FakeFile {
  fileId: string;
  filePath: string;
  bytes: Buffer;
}

interface Waiter {
  offset: number;
  limit: number;
  respond: () => void;
}

/** A queued update: `id` orders it and drops it below the offset; `payload` is what is served. */
interface QueuedUpdate {
  id: number;
  payload: unknown;
}

interface BotState {
  bot: FakeBot;
  updates: QueuedUpdate[];
  nextUpdateId: number;
  waiters: Set<Waiter>;
  /** The command menu (setMyCommands / deleteMyCommands). */
  menu: FakeMenuCommand[];
  /** Every call of this bot fails so, until `heal`. */
  broken?: { methods?: string[]; failure: FakeTelegramFailure };
}

/** The running fake; close it in `afterEach`. */
export interface FakeTelegram {
  /** Pass as grammY's `apiRoot` (no trailing slash). */
  apiRoot: string;
  calls: FakeTelegramCall[];
  addBot(token: string, bot: FakeBot): void;
  /** Queues an update (its `update_id` is assigned) and wakes a pending long poll. */
  pushUpdate(token: string, update: Record<string, unknown>): number;
  /** Queues `{ message }`. */
  pushMessage(token: string, message: Record<string, unknown>): number;
  /**
   * Queues `payload` exactly as given (no `update_id` is set: `null`, a string, `{update_id: "7"}`…)
   * at the next update position; it is dropped once the poller's offset passes that position.
   */
  pushRaw(token: string, payload: unknown): number;
  addFile(token: string, file: FakeFile): void;
  /** The next `count` calls of `method` (any bot) fail as described. */
  failNext(method: string, count: number, failure: FakeTelegramFailure): void;
  /** Every call of one bot (of `methods`, default all) fails as described until {@link heal}. */
  breakBot(token: string, failure: FakeTelegramFailure, methods?: string[]): void;
  /** Ends {@link breakBot}. */
  heal(token: string): void;
  callsOf(method: string, token?: string): FakeTelegramCall[];
  /** Resolves with the first call of `method` matching `where`, waiting for it if needed. */
  waitForCall(
    method: string,
    where?: (call: FakeTelegramCall) => boolean,
  ): Promise<FakeTelegramCall>;
  /** The bot's current command menu (what setMyCommands set, emptied by deleteMyCommands). */
  commandMenu(token: string): FakeMenuCommand[];
  /** Number of getUpdates requests currently held open. */
  pendingPolls(token: string): number;
  close(): Promise<void>;
}

const JSON_HEADERS = { "content-type": "application/json" };

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Splits a multipart body by hand: grammY writes `content-disposition:form-data;name="x";filename=y`
 * (no spaces, unquoted file names), which undici's FormData parser rejects.
 */
function parseMultipart(
  body: Buffer,
  boundary: string,
): Pick<FakeTelegramCall, "params" | "files"> {
  const params: Record<string, unknown> = {};
  const files: FakeTelegramCall["files"] = {};
  // latin1 keeps one char per byte, so lengths below are byte counts.
  const text = body.toString("latin1");
  for (const part of text.split(`--${boundary}`)) {
    const headerEnd = part.indexOf("\r\n\r\n");
    if (headerEnd < 0) continue;
    const headers = part.slice(0, headerEnd);
    const content = part.slice(headerEnd + 4).replace(/\r\n$/, "");
    const name = /name="([^"]+)"/i.exec(headers)?.[1];
    if (!name) continue;
    const fileName = /filename="?([^";\r\n]+)"?/i.exec(headers)?.[1];
    if (fileName !== undefined) {
      files[name] = { fileName, size: content.length };
      continue;
    }
    const value = Buffer.from(content, "latin1").toString("utf8");
    params[name] = /^[[{]/.test(value) ? JSON.parse(value) : value;
  }
  return { params, files };
}

/** Parses JSON or multipart bodies; multipart text fields holding JSON are decoded like Telegram does. */
async function parseParams(
  req: IncomingMessage,
): Promise<Pick<FakeTelegramCall, "params" | "files">> {
  const body = await readBody(req);
  const type = req.headers["content-type"] ?? "";
  if (body.length === 0) return { params: {}, files: {} };
  if (type.startsWith("application/json")) {
    return { params: JSON.parse(body.toString("utf8")) as Record<string, unknown>, files: {} };
  }
  const boundary = /boundary=([^;]+)/.exec(type)?.[1];
  if (!boundary) throw new Error(`fake-telegram: unsupported content-type ${type}`);
  return parseMultipart(body, boundary);
}

/** Starts the fake on 127.0.0.1, port 0. */
export async function startFakeTelegram(): Promise<FakeTelegram> {
  const bots = new Map<string, BotState>();
  const files = new Map<string, FakeFile>();
  const calls: FakeTelegramCall[] = [];
  const failures = new Map<string, Array<FakeTelegramFailure>>();
  const callListeners = new Set<() => void>();
  const hanging = new Set<ServerResponse>();
  let nextMessageId = 1000;
  const notifyListeners = () => {
    for (const listener of [...callListeners]) listener();
  };

  const send = (res: ServerResponse, status: number, body: unknown): void => {
    if (res.writableEnded || res.destroyed) return;
    res.writeHead(status, JSON_HEADERS).end(JSON.stringify(body));
  };
  const ok = (res: ServerResponse, result: unknown): void => send(res, 200, { ok: true, result });

  const sentMessage = (params: Record<string, unknown>, extra: Record<string, unknown>) => {
    nextMessageId += 1;
    const message: Record<string, unknown> = {
      message_id: nextMessageId,
      date: 1_700_000_100,
      chat: {
        id: Number(params.chat_id),
        type: Number(params.chat_id) < 0 ? "supergroup" : "private",
      },
      ...extra,
    };
    if (params.message_thread_id !== undefined)
      message.message_thread_id = params.message_thread_id;
    return message;
  };

  const pollUpdates = (state: BotState, params: Record<string, unknown>, res: ServerResponse) => {
    const offset = typeof params.offset === "number" ? params.offset : 0;
    const limit = typeof params.limit === "number" ? params.limit : 100;
    // Telegram forgets every update below the offset once it is given.
    if (offset > 0) state.updates = state.updates.filter((u) => u.id >= offset);
    const available = () =>
      state.updates
        .filter((u) => u.id >= offset)
        .slice(0, limit)
        .map((u) => u.payload);
    const now = available();
    const timeout = typeof params.timeout === "number" ? params.timeout : 0;
    if (now.length > 0 || timeout <= 0) return ok(res, now);
    const waiter: Waiter = { offset, limit, respond: () => finish() };
    const timer = setTimeout(() => finish(), timeout * 1000);
    const finish = () => {
      clearTimeout(timer);
      state.waiters.delete(waiter);
      ok(res, available());
    };
    state.waiters.add(waiter);
    notifyListeners(); // lets `waitForCall` predicates see the held poll
    // `close` on the response (not the request) fires when the client aborts a held poll.
    res.on("close", () => {
      clearTimeout(timer);
      state.waiters.delete(waiter);
    });
  };

  const answer = (call: FakeTelegramCall, state: BotState, res: ServerResponse) => {
    const { params, method } = call;
    switch (method) {
      case "getMe":
        return ok(res, {
          id: state.bot.id,
          is_bot: true,
          first_name: state.bot.first_name ?? state.bot.username,
          username: state.bot.username,
          can_join_groups: true,
          can_read_all_group_messages: false,
          supports_inline_queries: false,
        });
      case "setMyCommands": {
        const answered = setMyCommands(params);
        if (!answered.ok)
          return send(res, 400, { ok: false, error_code: 400, description: answered.description });
        state.menu = answered.menu;
        return ok(res, true);
      }
      case "deleteMyCommands":
        state.menu = [];
        return ok(res, true);
      case "deleteWebhook":
      case "sendChatAction":
        return ok(res, true);
      case "getUpdates":
        return pollUpdates(state, params, res);
      case "sendMessage":
        return ok(res, sentMessage(params, { text: params.text }));
      case "editMessageText":
        return ok(res, {
          ...sentMessage(params, { text: params.text }),
          message_id: params.message_id,
        });
      case "sendPhoto":
        return ok(
          res,
          sentMessage(params, { photo: [{ file_id: "sent-photo", width: 1, height: 1 }] }),
        );
      case "sendDocument":
        return ok(res, sentMessage(params, { document: { file_id: "sent-doc" } }));
      case "getFile": {
        const file = files.get(`${call.token}/${String(params.file_id)}`);
        if (!file)
          return send(res, 400, {
            ok: false,
            error_code: 400,
            description: "Bad Request: invalid file_id",
          });
        return ok(res, {
          file_id: file.fileId,
          file_unique_id: `u-${file.fileId}`,
          file_size: file.bytes.length,
          file_path: file.filePath,
        });
      }
      default:
        return send(res, 404, {
          ok: false,
          error_code: 404,
          description: "Not Found: method not found",
        });
    }
  };

  const serveFile = (token: string, path: string, res: ServerResponse) => {
    const file = [...files.entries()].find(
      ([key, f]) => key.startsWith(`${token}/`) && f.filePath === path,
    )?.[1];
    if (!file) return send(res, 404, { ok: false, error_code: 404, description: "Not Found" });
    res.writeHead(200, { "content-type": "application/octet-stream" }).end(file.bytes);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const download = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname);
    if (download) return serveFile(download[1]!, download[2]!, res);
    const route = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
    if (!route) return send(res, 404, { ok: false, error_code: 404, description: "Not Found" });
    const token = route[1]!;
    const method = route[2]!;
    const { params, files: parts } = await parseParams(req);
    const call: FakeTelegramCall = { token, method, params, files: parts };
    calls.push(call);
    notifyListeners();
    const state = bots.get(token);
    if (!state) return send(res, 401, { ok: false, error_code: 401, description: "Unauthorized" });
    const broken = state.broken;
    const failure =
      failures.get(method)?.shift() ??
      (broken && (!broken.methods || broken.methods.includes(method)) ? broken.failure : undefined);
    if (failure?.kind === "hang") {
      hanging.add(res);
      return;
    }
    if (failure?.kind === "destroy") {
      res.socket?.destroy();
      return;
    }
    if (failure?.kind === "body") {
      res.writeHead(failure.status ?? 200, JSON_HEADERS).end(failure.body);
      return;
    }
    if (failure) {
      const body: Record<string, unknown> = {
        ok: false,
        error_code: failure.code,
        description: failure.description,
      };
      if (failure.retryAfter !== undefined) body.parameters = { retry_after: failure.retryAfter };
      return send(res, failure.code, body);
    }
    answer(call, state, res);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      send(res, 500, { ok: false, error_code: 500, description: String(err) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  const stateOf = (token: string): BotState => {
    const state = bots.get(token);
    if (!state) throw new Error(`fake-telegram: unknown bot token ${token}`);
    return state;
  };

  const fake: FakeTelegram = {
    apiRoot: `http://127.0.0.1:${port}`,
    calls,
    addBot(token, bot) {
      bots.set(token, { bot, updates: [], nextUpdateId: 1, waiters: new Set(), menu: [] });
    },
    pushUpdate(token, update) {
      const state = stateOf(token);
      const updateId = state.nextUpdateId;
      return fake.pushRaw(token, { ...update, update_id: updateId });
    },
    pushRaw(token, payload) {
      const state = stateOf(token);
      const id = state.nextUpdateId++;
      state.updates.push({ id, payload });
      for (const waiter of [...state.waiters]) waiter.respond();
      return id;
    },
    pushMessage(token, message) {
      return fake.pushUpdate(token, { message });
    },
    breakBot(token, failure, methods) {
      stateOf(token).broken = methods ? { failure, methods } : { failure };
    },
    heal(token) {
      delete stateOf(token).broken;
    },
    addFile(token, file) {
      files.set(`${token}/${file.fileId}`, file);
    },
    failNext(method, count, failure) {
      const queue = failures.get(method) ?? [];
      for (let i = 0; i < count; i++) queue.push(failure);
      failures.set(method, queue);
    },
    callsOf(method, token) {
      return calls.filter((c) => c.method === method && (token === undefined || c.token === token));
    },
    waitForCall(method, where = () => true) {
      const find = () => calls.find((c) => c.method === method && where(c));
      const found = find();
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => {
        const listener = () => {
          const match = find();
          if (!match) return;
          callListeners.delete(listener);
          resolve(match);
        };
        callListeners.add(listener);
      });
    },
    commandMenu(token) {
      return stateOf(token).menu;
    },
    pendingPolls(token) {
      return stateOf(token).waiters.size;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}
