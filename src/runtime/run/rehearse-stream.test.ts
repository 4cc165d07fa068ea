import type { Api, Model } from "@mariozechner/pi-ai";
import { describe, expect, it } from "vitest";
import { canRehearseStream, rehearseProviderStream } from "./rehearse-stream.js";

const model = (api: string): Model<Api> =>
  ({
    id: "m1",
    name: "m1",
    api,
    provider: "p",
    // Never contacted: the rehearsal replaces the base URL with its own server's.
    baseUrl: "http://192.0.2.1:9/v1",
    reasoning: false,
    input: ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 8000,
    maxTokens: 256,
  }) as Model<Api>;

describe("stream rehearsal", () => {
  it.each(["openai-completions", "anthropic-messages"])(
    "streams the canned reply of %s through pi-ai from an in-process server",
    async (api) => {
      expect(canRehearseStream(api)).toBe(true);
      const text = await rehearseProviderStream({
        model: model(api),
        systemPrompt: "s",
        tools: [],
      });
      expect(text).toBe("ok");
    },
  );

  it("refuses an API it has no canned reply for", async () => {
    expect(canRehearseStream("openai-responses")).toBe(false);
    await expect(
      rehearseProviderStream({ model: model("openai-responses"), systemPrompt: "s", tools: [] }),
    ).rejects.toThrow(/no stream rehearsal for provider API "openai-responses"/);
  });
});
