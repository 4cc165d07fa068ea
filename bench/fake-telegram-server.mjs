// A minimal Telegram Bot API for the channels bench, on 127.0.0.1 port 0: one bot, JSON bodies only
// (what grammY sends for text), getMe / deleteWebhook / sendChatAction / setMyCommands, long-polled
// getUpdates that forgets updates below the offset (as Telegram does), and sendMessage answered with
// a message id. Every sendMessage is handed to `onSend` with its arrival time (`performance.now()`,
// the request's body fully read). Bench double only; the full fake for tests is
// test/helpers/fake-telegram.ts.
import { createServer } from "node:http";
import { performance } from "node:perf_hooks";

const JSON_HEADERS = { "content-type": "application/json" };

/**
 * Starts the fake for the bot `{ token, id, username }`. Returns `{ apiRoot, push(message),
 * onSend(listener), pollsSeen, close() }`; `push` queues `{ message }`, wakes a held poll and
 * returns the update id.
 */
export async function startFakeTelegramServer(bot) {
  let updates = [];
  let nextUpdateId = 1;
  let nextMessageId = 1_000_000;
  let pollsSeen = 0;
  const waiters = new Set();
  const sendListeners = new Set();
  const sockets = new Set();

  const reply = (res, status, body) => {
    if (res.writableEnded || res.destroyed) return;
    res.writeHead(status, JSON_HEADERS).end(JSON.stringify(body));
  };
  const ok = (res, result) => reply(res, 200, { ok: true, result });

  const poll = (params, res) => {
    pollsSeen += 1;
    const offset = typeof params.offset === "number" ? params.offset : 0;
    const limit = typeof params.limit === "number" ? params.limit : 100;
    if (offset > 0) updates = updates.filter((u) => u.update_id >= offset);
    const available = () => updates.filter((u) => u.update_id >= offset).slice(0, limit);
    const timeout = typeof params.timeout === "number" ? params.timeout : 0;
    if (available().length > 0 || timeout <= 0) return ok(res, available());
    const finish = () => {
      clearTimeout(timer);
      waiters.delete(finish);
      ok(res, available());
    };
    const timer = setTimeout(finish, timeout * 1000);
    waiters.add(finish);
    res.on("close", () => {
      clearTimeout(timer);
      waiters.delete(finish);
    });
  };

  const answer = (method, params, res) => {
    switch (method) {
      case "getMe":
        return ok(res, {
          id: bot.id,
          is_bot: true,
          first_name: bot.username,
          username: bot.username,
        });
      case "deleteWebhook":
      case "setMyCommands":
      case "sendChatAction":
        return ok(res, true);
      case "getUpdates":
        return poll(params, res);
      case "sendMessage": {
        const at = performance.now();
        for (const listener of sendListeners) listener({ params, at });
        nextMessageId += 1;
        const chatId = Number(params.chat_id);
        return ok(res, {
          message_id: nextMessageId,
          date: Math.floor(Date.now() / 1000),
          chat: { id: chatId, type: chatId < 0 ? "supergroup" : "private" },
          text: params.text,
        });
      }
      default:
        return reply(res, 404, { ok: false, error_code: 404, description: "Not Found" });
    }
  };

  const server = createServer((req, res) => {
    const parts = [];
    req.on("data", (part) => parts.push(part));
    req.on("end", () => {
      const route = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(
        new URL(req.url ?? "/", "http://x").pathname,
      );
      if (!route || route[1] !== bot.token) {
        return reply(res, 401, { ok: false, error_code: 401, description: "Unauthorized" });
      }
      const text = Buffer.concat(parts).toString("utf8");
      let params = {};
      try {
        params = text ? JSON.parse(text) : {};
      } catch {
        return reply(res, 400, { ok: false, error_code: 400, description: "body is not JSON" });
      }
      answer(route[2], params, res);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();

  return {
    apiRoot: `http://127.0.0.1:${port}`,
    get pollsSeen() {
      return pollsSeen;
    },
    push(message) {
      const update_id = nextUpdateId++;
      updates.push({ update_id, message });
      for (const wake of [...waiters]) wake();
      return update_id;
    },
    onSend(listener) {
      sendListeners.add(listener);
      return () => sendListeners.delete(listener);
    },
    close: () =>
      new Promise((resolve, reject) => {
        for (const socket of sockets) socket.destroy();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** A private-chat text message from user `chatId` (the chat id of a DM is the user's id). */
export function privateText({ chatId, messageId, text }) {
  const from = { id: chatId, is_bot: false, first_name: `User${chatId}` };
  return {
    message_id: messageId,
    date: Math.floor(Date.now() / 1000),
    chat: { id: chatId, type: "private", first_name: from.first_name },
    from,
    text,
  };
}
