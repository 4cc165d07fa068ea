// A provider that cannot be reached is named with its cause and host, never "timeout": real sockets
// (a closed port, an unresolvable `.invalid` host, a self-signed TLS server) through pi-ai's client.
import net from "node:net";
import { type Model, streamSimple } from "@mariozechner/pi-ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type SelfSignedTlsServer,
  startSelfSignedTls,
} from "../../../test/helpers/self-signed-tls.js";
import { connectionCauseOf, probeConnection } from "../../lib/connection-cause.js";
import { classifyFailure } from "./classify.js";
import { describeUnreachable } from "./unreachable.js";

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function modelAt(baseUrl: string): Model<"openai-completions"> {
  return {
    id: "m1",
    name: "m1",
    api: "openai-completions",
    provider: "acme",
    baseUrl,
    reasoning: false,
    input: ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 8000,
    maxTokens: 100,
  };
}

async function failedCall(baseUrl: string) {
  const stream = streamSimple(
    modelAt(baseUrl),
    { messages: [{ role: "user", content: "hi", timestamp: 0 }] },
    { apiKey: "sk-test", maxRetries: 0 } as never,
  );
  return stream.result();
}

let tlsServer: SelfSignedTlsServer;
let tlsPort: number;

beforeAll(async () => {
  tlsServer = await startSelfSignedTls();
  tlsPort = tlsServer.port;
});

afterAll(() => tlsServer.close());

describe("an unreachable provider", () => {
  it("a refused connection: classified unreachable, named with host and ECONNREFUSED", async () => {
    const port = await closedPort();
    const baseUrl = `http://127.0.0.1:${port}/v1`;
    const final = await failedCall(baseUrl);
    expect(final.stopReason).toBe("error");
    expect(classifyFailure(final)).toBe("unreachable");
    const text = await describeUnreachable({
      provider: "acme",
      baseUrl,
      errorText: final.errorMessage ?? "",
    });
    expect(text).toBe(
      `model provider "acme" unreachable: connection to 127.0.0.1:${port} refused (ECONNREFUSED)`,
    );
  });

  it("an unresolvable host: a DNS failure naming the host", async () => {
    const baseUrl = "http://api.acme-pincer-test.invalid/v1";
    const final = await failedCall(baseUrl);
    expect(classifyFailure(final)).toBe("unreachable");
    const text = await describeUnreachable({
      provider: "acme",
      baseUrl,
      errorText: final.errorMessage ?? "",
    });
    expect(text).toMatch(
      /^model provider "acme" unreachable: DNS lookup of api\.acme-pincer-test\.invalid failed \((ENOTFOUND|EAI_AGAIN)\)$/,
    );
  });

  it("a self-signed TLS server: a TLS failure, not a timeout", async () => {
    const baseUrl = `https://127.0.0.1:${tlsPort}/v1`;
    const final = await failedCall(baseUrl);
    expect(classifyFailure(final)).toBe("unreachable");
    const text = await describeUnreachable({
      provider: "acme",
      baseUrl,
      errorText: final.errorMessage ?? "",
    });
    expect(text).toMatch(/unreachable: TLS handshake with 127\.0\.0\.1:\d+ failed/);
    expect(text).toMatch(/\((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|ERR_TLS_\w+)\)/);
  });

  it("reads the cause from fetch's error chain (channel platforms)", async () => {
    const port = await closedPort();
    const err = await fetch(`http://127.0.0.1:${port}/bot/x`).catch((e: unknown) => e);
    expect(connectionCauseOf(err, "fallback")).toMatchObject({
      kind: "refused",
      code: "ECONNREFUSED",
    });
    const dns = await fetch("http://nowhere-pincer.invalid/").catch((e: unknown) => e);
    expect(connectionCauseOf(dns, "fallback")).toMatchObject({
      kind: "dns",
      host: "nowhere-pincer.invalid",
    });
    const tlsErr = await fetch(`https://127.0.0.1:${tlsPort}/`).catch((e: unknown) => e);
    expect(connectionCauseOf(tlsErr, "fallback")?.kind).toBe("tls");
  });

  it("a reachable host probes clean", async () => {
    const server = net.createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as net.AddressInfo;
    expect(await probeConnection(`http://127.0.0.1:${port}/`)).toBeUndefined();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});
