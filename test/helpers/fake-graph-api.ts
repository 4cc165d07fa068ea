// A fake Meta Graph API (WhatsApp Business Cloud API) on 127.0.0.1, port 0: phone numbers with
// their bearer token (`GET /{version}/{id}?fields=…`), `POST /{id}/messages` (texts, media,
// read receipts with typing indicators), `POST /{id}/media` uploads (multipart), inbound media
// (`GET /{media-id}` → a URL served with the bearer), scripted Graph errors for the next calls,
// every call recorded. It also plays Meta's side of the webhooks: signed (or unsigned) posts to the
// gateway and the subscription handshake.
import { createHmac } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A business phone number the fake serves. */
export interface FakePhoneNumber {
  id: string;
  token: string;
  display: string;
  name: string;
}

/** One recorded call. `json` for JSON bodies, `form` fields (files as name, type and size). */
export interface FakeGraphCall {
  method: string;
  path: string;
  /** The path after the version (`1234/messages`). */
  route: string;
  token: string | undefined;
  json?: Record<string, unknown>;
  form?: Record<string, string | { fileName: string; type: string; size: number }>;
}

/** A scripted Graph error for the next matching call. */
export interface FakeGraphFailure {
  /** Only calls whose route ends with this (`messages`, `media`); default any. */
  route?: string;
  status: number;
  error: { code: number; message: string; error_subcode?: number; is_transient?: boolean };
  headers?: Record<string, string>;
}

/** Inbound media the fake serves by id. */
export interface FakeMedia {
  id: string;
  mimeType: string;
  bytes: Buffer;
}

/** A webhook post's answer. */
export interface WebhookAnswer {
  status: number;
  text: string;
}

/** The running fake. */
export interface FakeGraphApi {
  /** `apiRoot` for the account config. */
  readonly apiRoot: string;
  readonly calls: FakeGraphCall[];
  addPhoneNumber(phone: FakePhoneNumber): void;
  addMedia(media: FakeMedia): void;
  failNext(failure: FakeGraphFailure): void;
  /** Sent messages (not read receipts) of one phone number id. */
  messagesOf(phoneNumberId: string): FakeGraphCall[];
  waitForCall(match: (call: FakeGraphCall) => boolean, timeoutMs?: number): Promise<FakeGraphCall>;
  close(): Promise<void>;
}

const bearerOf = (req: IncomingMessage) =>
  /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ""))?.[1];

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function parseForm(req: IncomingMessage, body: Buffer): Promise<FakeGraphCall["form"]> {
  const request = new Request("http://fake.invalid/", {
    method: "POST",
    headers: { "content-type": String(req.headers["content-type"] ?? "") },
    body: new Uint8Array(body),
  });
  const out: NonNullable<FakeGraphCall["form"]> = {};
  for (const [key, value] of (await request.formData()).entries()) {
    out[key] =
      typeof value === "string"
        ? value
        : { fileName: value.name, type: value.type, size: value.size };
  }
  return out;
}

function send(res: ServerResponse, status: number, body: unknown, headers = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

/** Starts the fake. */
export async function startFakeGraphApi(): Promise<FakeGraphApi> {
  const phones = new Map<string, FakePhoneNumber>();
  const media = new Map<string, FakeMedia>();
  const failures: FakeGraphFailure[] = [];
  const calls: FakeGraphCall[] = [];
  const listeners = new Set<() => void>();
  let sent = 0;
  let uploads = 0;
  let base = "";

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://fake.invalid");
    const body = await readBody(req);
    const token = bearerOf(req);
    const download = /^\/download\/(.+)$/.exec(url.pathname);
    if (download) {
      calls.push({ method: "GET", path: url.pathname, route: url.pathname.slice(1), token });
      const item = media.get(decodeURIComponent(download[1]!));
      if (!item || !token)
        return send(res, 404, { error: { code: 100, message: "no such media" } });
      res.writeHead(200, { "content-type": item.mimeType, "content-length": item.bytes.length });
      return res.end(item.bytes);
    }
    const route = url.pathname.replace(/^\/v\d+\.\d+\//, "");
    const call: FakeGraphCall = { method: req.method ?? "GET", path: url.pathname, route, token };
    const type = String(req.headers["content-type"] ?? "");
    if (type.startsWith("application/json")) call.json = JSON.parse(body.toString("utf8"));
    else if (type.startsWith("multipart/form-data")) call.form = await parseForm(req, body);
    calls.push(call);
    for (const listener of [...listeners]) listener();
    const phoneId = route.split("/")[0]!;
    const phone = phones.get(phoneId);
    const known = [...phones.values()].some((p) => p.token === token);
    if (!known)
      return send(res, 401, {
        error: {
          code: 190,
          type: "OAuthException",
          message: "Error validating access token: Session has expired.",
        },
      });
    const failAt = failures.findIndex((f) => !f.route || route.endsWith(f.route));
    if (failAt >= 0) {
      const [failure] = failures.splice(failAt, 1);
      return send(res, failure!.status, { error: failure!.error }, failure!.headers);
    }
    if (req.method === "GET" && media.has(route)) {
      const item = media.get(route)!;
      return send(res, 200, {
        id: item.id,
        url: `${base}/download/${encodeURIComponent(item.id)}`,
        mime_type: item.mimeType,
        file_size: item.bytes.length,
        messaging_product: "whatsapp",
      });
    }
    if (!phone || phone.token !== token)
      return send(res, 400, { error: { code: 100, message: `unknown object ${phoneId}` } });
    if (req.method === "GET" && route === phoneId)
      return send(res, 200, {
        id: phone.id,
        display_phone_number: phone.display,
        verified_name: phone.name,
      });
    if (req.method === "POST" && route === `${phoneId}/media`)
      return send(res, 200, { id: `media.up.${++uploads}` });
    if (req.method === "POST" && route === `${phoneId}/messages`) {
      if (call.json?.status === "read") return send(res, 200, { success: true });
      const to = String(call.json?.to ?? "");
      return send(res, 200, {
        messaging_product: "whatsapp",
        contacts: [{ input: to, wa_id: to }],
        messages: [{ id: `wamid.out.${phoneId}.${++sent}` }],
      });
    }
    return send(res, 404, { error: { code: 100, message: `no route ${req.method} ${route}` } });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => send(res, 500, { error: { message: String(err) } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const isMessage = (c: FakeGraphCall) =>
    c.method === "POST" && c.route.endsWith("/messages") && c.json?.status === undefined;
  return {
    apiRoot: base,
    calls,
    addPhoneNumber: (phone) => phones.set(phone.id, phone),
    addMedia: (item) => media.set(item.id, item),
    failNext: (failure) => failures.push(failure),
    messagesOf: (id) => calls.filter((c) => isMessage(c) && c.route === `${id}/messages`),
    waitForCall(match, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = calls.find(match);
          if (!found) return false;
          listeners.delete(listener);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const listener = () => void check();
        const timer = setTimeout(() => {
          listeners.delete(listener);
          reject(new Error(`no matching Graph call; got ${JSON.stringify(calls.slice(-5))}`));
        }, timeoutMs);
        listeners.add(listener);
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `X-Hub-Signature-256` of a body under an app secret, as Meta computes it. */
export function metaSignature(body: string, appSecret: string): string {
  return `sha256=${createHmac("sha256", appSecret).update(body).digest("hex")}`;
}

/** Posts a webhook body to the gateway as Meta does: signed with `appSecret`, or with the given
 *  `signature` (`null`: no signature header at all). */
export async function postWebhook(params: {
  url: string;
  body: unknown;
  appSecret?: string;
  signature?: string | null;
}): Promise<WebhookAnswer> {
  const text = typeof params.body === "string" ? params.body : JSON.stringify(params.body);
  const signature =
    params.signature === undefined ? metaSignature(text, params.appSecret ?? "") : params.signature;
  const res = await fetch(params.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(signature === null ? {} : { "x-hub-signature-256": signature }),
    },
    body: text,
  });
  return { status: res.status, text: await res.text() };
}

/** Meta's subscription handshake against the gateway. */
export async function verifyWebhook(params: {
  url: string;
  verifyToken: string;
  challenge: string;
  mode?: string;
}): Promise<WebhookAnswer> {
  const query = new URLSearchParams({
    "hub.mode": params.mode ?? "subscribe",
    "hub.verify_token": params.verifyToken,
    "hub.challenge": params.challenge,
  });
  const res = await fetch(`${params.url}?${query}`);
  return { status: res.status, text: await res.text() };
}

/** A webhook body of one change for `phoneNumberId` with messages and/or statuses. */
export function webhookBody(params: {
  phoneNumberId: string;
  messages?: unknown[];
  statuses?: unknown[];
  contacts?: Array<{ waId: string; name: string }>;
}): Record<string, unknown> {
  return {
    object: "whatsapp_business_account",
    entry: [
      {
        id: "WABA1",
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: {
                display_phone_number: "15550000000",
                phone_number_id: params.phoneNumberId,
              },
              ...(params.contacts
                ? {
                    contacts: params.contacts.map((c) => ({
                      wa_id: c.waId,
                      profile: { name: c.name },
                    })),
                  }
                : {}),
              ...(params.messages ? { messages: params.messages } : {}),
              ...(params.statuses ? { statuses: params.statuses } : {}),
            },
          },
        ],
      },
    ],
  };
}

/** An inbound text message as the webhook carries it. */
export function textMessage(params: {
  from: string;
  id: string;
  text: string;
  contextId?: string;
}): Record<string, unknown> {
  return {
    from: params.from,
    id: params.id,
    timestamp: "1700000000",
    type: "text",
    text: { body: params.text },
    ...(params.contextId ? { context: { from: "15550000000", id: params.contextId } } : {}),
  };
}
