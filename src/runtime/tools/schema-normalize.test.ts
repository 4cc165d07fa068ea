import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { needsGeminiSchema, normalizeToolSchema } from "./schema-normalize.js";

const schema = Type.Object(
  {
    url: Type.String({ format: "uri", description: "Where." }),
    when: Type.Optional(Type.String({ format: "date-time" })),
    mode: Type.Union([Type.Literal("fast"), Type.Literal("slow")], { description: "Speed." }),
    tags: Type.Array(Type.Object({ name: Type.String() }, { additionalProperties: false })),
    note: Type.Union([Type.String(), Type.Null()]),
    kind: Type.Literal("x"),
    format: Type.Optional(Type.String({ description: "A property named like a keyword." })),
  },
  { additionalProperties: false, $schema: "https://json-schema.org/draft/2020-12/schema" },
);

describe("normalizeToolSchema", () => {
  it("cleans schemas for Gemini", () => {
    expect(normalizeToolSchema(schema, "google-generative-ai")).toEqual({
      type: "object",
      properties: {
        url: { type: "string", description: "Where." },
        when: { type: "string", format: "date-time" },
        mode: { type: "string", enum: ["fast", "slow"], description: "Speed." },
        tags: {
          type: "array",
          items: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
        },
        note: { type: "string", nullable: true },
        kind: { type: "string", enum: ["x"] },
        format: { type: "string", description: "A property named like a keyword." },
      },
      required: ["url", "mode", "tags", "note", "kind"],
    });
  });

  it("leaves schemas untouched for other APIs", () => {
    for (const api of ["openai-responses", "openai-completions", "anthropic-messages", "ollama"]) {
      expect(normalizeToolSchema(schema, api)).toBe(schema);
    }
  });

  it("recognizes Google's APIs and providers", () => {
    expect(
      ["google-vertex", "google", "google-gemini-cli", "gemini"].every(needsGeminiSchema),
    ).toBe(true);
    expect(needsGeminiSchema("openrouter")).toBe(false);
  });
});
