import { describe, expect, it } from "vitest";
import { encode, parseSteer, parseSteeredAck, parseSteerReply } from "./wire.js";

const text = (value: string) => new TextEncoder().encode(value);
const image = { type: "image", data: "aGk=", mimeType: "image/png" };

describe("steer wire messages", () => {
  it("parses a steer with its images and arrival time", () => {
    const steer = { v: 1, runId: "r1", id: "r1.s0", text: "look", images: [image], receivedAt: 5 };
    expect(parseSteer(encode(steer))).toEqual({ ok: true, value: steer });
  });

  it("rejects a malformed steer with a clear error", () => {
    expect(parseSteer(text("{"))).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^not JSON/),
    });
    expect(parseSteer(encode([1]))).toEqual({ ok: false, error: "not a JSON object" });
    expect(parseSteer(encode({ v: 2, runId: "r", id: "i", text: "t" }))).toEqual({
      ok: false,
      error: "unknown steer version 2",
    });
    expect(parseSteer(encode({ v: 1, runId: "r", text: "t" }))).toEqual({
      ok: false,
      error: "steer without id",
    });
    expect(parseSteer(encode({ v: 1, runId: "r", id: "i", text: 3 }))).toEqual({
      ok: false,
      error: "steer without text",
    });
    expect(
      parseSteer(encode({ v: 1, runId: "r", id: "i", text: "t", images: [{ type: "image" }] })),
    ).toEqual({ ok: false, error: "steer images are not a list of {type: image, data, mimeType}" });
    expect(parseSteer(encode({ v: 1, runId: "r", id: "i", text: "t", receivedAt: "x" }))).toEqual({
      ok: false,
      error: "steer receivedAt is not a number",
    });
  });

  it("parses a steer reply and refuses an unknown status", () => {
    expect(parseSteerReply(encode({ id: "i", status: "accepted" }))).toEqual({
      ok: true,
      value: { id: "i", status: "accepted" },
    });
    expect(parseSteerReply(encode({ id: "i", status: "maybe" }))).toEqual({
      ok: false,
      error: "steer reply with unknown status maybe",
    });
    expect(parseSteerReply(encode({ status: "accepted" }))).toEqual({
      ok: false,
      error: "steer reply without id",
    });
  });

  it("parses a steered ack", () => {
    expect(parseSteeredAck(encode({ runId: "r", id: "r.s0" }))).toEqual({
      ok: true,
      value: { runId: "r", id: "r.s0" },
    });
    expect(parseSteeredAck(encode({ runId: "r" }))).toEqual({
      ok: false,
      error: "steered ack without id",
    });
  });
});
