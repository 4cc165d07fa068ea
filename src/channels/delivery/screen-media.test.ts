import { mkdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../../../test/helpers/temp-cleanup.js";
import { createEntryLogger } from "../../lib/logger.js";
import type { MediaPolicy } from "./media-policy.js";
import { refusedMediaNote, screenReplyMedia } from "./screen-media.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function workspacePolicy(): { policy: MediaPolicy; ws: string; state: string } {
  const root = realpathSync(makeTempDir("pincer-screen-"));
  dirs.push(root);
  const state = join(root, "state");
  const ws = join(state, "workspace");
  mkdirSync(ws, { recursive: true });
  writeFileSync(join(ws, "ok.png"), "png");
  writeFileSync(join(state, "gateway.token"), "tok");
  const policy: MediaPolicy = {
    baseDir: ws,
    home: root,
    allowedRoots: [ws],
    protectedRoots: [state],
    secretPaths: [join(state, "gateway.token")],
  };
  return { policy, ws, state };
}

function recordingLog() {
  const warned: Array<Record<string, unknown>> = [];
  return {
    warned,
    log: createEntryLogger((entry) => {
      if (entry.level === "warn") warned.push(entry.fields);
    }),
  };
}

describe("screenReplyMedia", () => {
  it("keeps allowed files as real paths, drops refused ones with a note and a log line", async () => {
    const { policy, ws, state } = workspacePolicy();
    const { log, warned } = recordingLog();
    const { payloads, refused } = await screenReplyMedia({
      payloads: [
        {
          text: "here",
          media: ["ok.png", `${state}/gateway.token`, "https://x.test/a.png"],
          voice: false,
        },
      ],
      policy: () => policy,
      log,
      context: { channel: "telegram" },
    });
    expect(payloads).toEqual([
      {
        text: `here\n\n${refusedMediaNote(1)}`,
        media: [{ path: join(ws, "ok.png") }, { url: "https://x.test/a.png" }],
        voice: false,
      },
    ]);
    expect(refused).toEqual([
      { ref: `${state}/gateway.token`, reason: "a credential or state file" },
    ]);
    expect(warned).toEqual([
      {
        channel: "telegram",
        media: `${state}/gateway.token`,
        reason: "a credential or state file",
      },
    ]);
    // The chat never learns the refused path.
    expect(payloads[0]!.text).not.toContain("gateway.token");
  });

  it("does not resolve the policy for remote-only media", async () => {
    const { log } = recordingLog();
    const { payloads } = await screenReplyMedia({
      payloads: [{ text: "", media: ["https://x.test/a.png"], voice: true, replyTo: "9" }],
      policy: () => {
        throw new Error("policy needed for remote media");
      },
      log,
    });
    expect(payloads).toEqual([
      { text: "", media: [{ url: "https://x.test/a.png" }], voice: true, replyTo: "9" },
    ]);
  });
});
