// A fake BlueBubbles server on 127.0.0.1, port 0: the REST API Pincer uses (`message/text`,
// `message/attachment` multipart, `chat/<guid>/typing`, `server/info`, attachment downloads), each
// call recorded, every request checked for `?password=`. It also plays the server's webhook side:
// `new-message` bodies posted to the gateway with (or without) the password.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A loosely typed JSON object. */
// biome-ignore lint/suspicious/noExplicitAny: tests read request bodies without a schema type.
export type LooseBody = Record<string, any>;

/** One recorded call (`form`: text fields, files as name and size). */
export interface FakeBlueBubblesCall {
  method: string;
  route: string;
  json?: LooseBody;
  form?: Record<string, string | { fileName: string; size: number }>;
}

/** The running fake. */
export interface FakeBlueBubbles {
  readonly url: string;
  readonly calls: FakeBlueBubblesCall[];
  callsOf(route: string): FakeBlueBubblesCall[];
  waitForCall(
    match: (call: FakeBlueBubblesCall) => boolean,
    timeoutMs?: number,
  ): Promise<FakeBlueBubblesCall>;
  addAttachment(guid: string, bytes: Buffer): void;
  close(): Promise<void>;
}

let counter = 0;
/** A `new-message` webhook body from `address` in chat `chatGuid` (a DM chat by default). */
export function newMessage(params: {
  address: string;
  text?: string;
  chatGuid?: string;
  guid?: string;
  data?: LooseBody;
}): LooseBody {
  counter += 1;
  return {
    type: "new-message",
    data: {
      guid: params.guid ?? `in-${counter}-${Date.now()}`,
      text: params.text ?? "",
      handle: { address: params.address },
      chats: [{ guid: params.chatGuid ?? `iMessage;-;${params.address}` }],
      isFromMe: false,
      dateCreated: 1_700_000_000_000 + counter,
      attachments: [],
      ...params.data,
    },
  };
}

/** Posts a webhook body to the gateway (`password: null`: none). */
export async function postWebhook(params: {
  url: string;
  body: unknown;
  password: string | null;
}): Promise<number> {
  const url = new URL(params.url);
  if (params.password !== null) url.searchParams.set("password", params.password);
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(params.body),
  });
  await res.text();
  return res.status;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function parseForm(req: IncomingMessage, body: Buffer) {
  const request = new Request("http://fake.invalid/", {
    method: "POST",
    headers: { "content-type": String(req.headers["content-type"] ?? "") },
    body: new Uint8Array(body),
  });
  const out: NonNullable<FakeBlueBubblesCall["form"]> = {};
  for (const [key, value] of (await request.formData()).entries())
    out[key] = typeof value === "string" ? value : { fileName: value.name, size: value.size };
  return out;
}

/** Starts the fake with its API password. */
export async function startFakeBlueBubbles(password: string): Promise<FakeBlueBubbles> {
  const calls: FakeBlueBubblesCall[] = [];
  const attachments = new Map<string, Buffer>();
  const listeners = new Set<() => void>();
  let sent = 0;
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://fake.invalid");
    const body = await readBody(req);
    const route = url.pathname.replace(/^\/api\/v1\//, "");
    const call: FakeBlueBubblesCall = { method: req.method ?? "GET", route };
    const type = String(req.headers["content-type"] ?? "");
    if (type.startsWith("application/json")) call.json = JSON.parse(body.toString("utf8"));
    else if (type.startsWith("multipart/form-data")) call.form = await parseForm(req, body);
    if (url.searchParams.get("password") !== password)
      return json(res, 401, { status: 401, message: "Unauthorized", error: { type: "auth" } });
    calls.push(call);
    for (const listener of [...listeners]) listener();
    if (route === "server/info")
      return json(res, 200, {
        status: 200,
        data: { server_version: "1.9.9-fake", detected_imessage: "bot@icloud.com" },
      });
    if (route === "message/text" || route === "message/attachment") {
      sent += 1;
      return json(res, 200, {
        status: 200,
        message: "Message sent!",
        data: { guid: `out-${sent}` },
      });
    }
    const download = /^attachment\/(.+)\/download$/.exec(route);
    if (download) {
      const bytes = attachments.get(decodeURIComponent(download[1]!));
      if (!bytes) return json(res, 404, { status: 404, message: "no such attachment" });
      res.writeHead(200, { "content-type": "application/octet-stream" });
      return res.end(bytes);
    }
    if (/^chat\/.+\/typing$/.test(route)) return json(res, 200, { status: 200, message: "ok" });
    return json(res, 404, { status: 404, message: "not found" });
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => json(res, 500, { status: 500, message: "fake crashed" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    callsOf: (route) => calls.filter((c) => c.route === route),
    waitForCall(match, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const listener = () => {
          const found = calls.find(match);
          if (!found) return;
          listeners.delete(listener);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          listeners.delete(listener);
          reject(new Error("fake bluebubbles: timed out waiting for a matching call"));
        }, timeoutMs);
        listeners.add(listener);
        listener();
      });
    },
    addAttachment: (guid, bytes) => attachments.set(guid, bytes),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
