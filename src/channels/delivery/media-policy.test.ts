import { mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir } from "../../../test/helpers/temp-cleanup.js";
import { resolveStatePaths } from "../../config/paths.js";
import type { OpenClawConfig } from "../../protocol/config/index.js";
import { checkMediaRef, type MediaPolicy, resolveMediaPolicy } from "./media-policy.js";

let home: string;
let state: string;
let ws: string;
const paths = () => resolveStatePaths({ env: { HOME: home } });

function put(path: string, body = "x"): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, body);
}

beforeAll(() => {
  home = realpathSync(makeTempDir("pincer-media-"));
  state = join(home, ".openclaw");
  ws = join(state, "workspace");
  put(join(state, "gateway.token"), "tok");
  put(join(state, "openclaw.json"), "{}");
  put(join(state, "credentials", "telegram-allowFrom.json"));
  put(join(state, "devices", "paired.json"));
  put(join(state, "agents", "main", "agent", "auth-profiles.json"));
  put(join(state, "agents", "main", "sessions", "s.jsonl"));
  put(join(state, "agents", "main", "notes.png"));
  put(join(state, "logs", "gateway.log"));
  put(join(state, "workspace-other", "secret.png"));
  put(join(ws, "photo.png"));
  put(join(ws, "sub", "a.png"));
  put(join(ws, "bot.token"));
  symlinkSync(join(state, "gateway.token"), join(ws, "link-to-token.png"));
  symlinkSync(join(state, "logs", "gateway.log"), join(ws, "link-to-log.png"));
  symlinkSync(state, join(ws, "state-dir"));
  put(join(home, "outside", "pic.png"));
  put(join(home, "elsewhere", "no.png"));
  put(join(home, "at-home.png"));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

function policyFor(cfg: OpenClawConfig = {}, agentId = "main"): MediaPolicy {
  return resolveMediaPolicy({
    cfg,
    paths: paths(),
    agentId,
    channel: "telegram",
    accountId: "default",
  });
}

async function verdict(policy: MediaPolicy, ref: string): Promise<string> {
  const check = await checkMediaRef(policy, ref);
  return check.ok ? (check.media.path ?? check.media.url ?? "?") : `refused: ${check.reason}`;
}

describe("checkMediaRef: what the default workspace may attach", () => {
  it("allows files inside the workspace however they are written, as their real path", async () => {
    const policy = policyFor();
    const photo = join(ws, "photo.png");
    for (const ref of [
      "photo.png",
      "./sub/../photo.png",
      photo,
      ` ${photo} `,
      pathToFileURL(photo).href,
      pathToFileURL(photo).href.replace("photo", "ph%6Fto"),
      `file://localhost${photo}`,
      "~/.openclaw/workspace/photo.png",
    ]) {
      expect(await verdict(policy, ref), ref).toBe(photo);
    }
    expect(await verdict(policy, "sub/a.png")).toBe(join(ws, "sub", "a.png"));
  });

  it("passes remote http(s) URLs untouched", async () => {
    const check = await checkMediaRef(policyFor(), "https://example.com/a.png?x=1");
    expect(check).toEqual({ ok: true, media: { url: "https://example.com/a.png?x=1" } });
  });

  it("refuses the state dir through every traversal variant", async () => {
    const policy = policyFor();
    const token = join(state, "gateway.token");
    const refs = [
      token,
      "~/.openclaw/gateway.token",
      "../gateway.token",
      "sub/../../gateway.token",
      `${ws}/../gateway.token`,
      pathToFileURL(token).href,
      `${pathToFileURL(ws).href}/%2e%2e/gateway.token`,
      `${pathToFileURL(ws).href}/..%2fgateway.token`,
      "link-to-token.png",
      "state-dir/gateway.token",
      "state-dir/credentials/telegram-allowFrom.json",
      "link-to-log.png",
      "../logs/gateway.log",
      "../agents/main/agent/auth-profiles.json",
      "../agents/main/sessions/s.jsonl",
      "../devices/paired.json",
      "../openclaw.json",
      "../workspace-other/secret.png",
    ];
    for (const ref of refs) expect(await verdict(policy, ref), ref).toMatch(/^refused: /);
  });

  it("refuses what is not a local file of the policy: other dirs, schemes, ~user, dirs, missing", async () => {
    const policy = policyFor();
    const refs = [
      join(home, "elsewhere", "no.png"),
      "~/at-home.png",
      "/etc/passwd",
      "%2e%2e/gateway.token",
      "ftp://example.com/a.png",
      "data:text/plain;base64,eA==",
      "file://evil.example/etc/passwd",
      "~root/.ssh/id_rsa",
      "sub",
      "missing.png",
      "",
    ];
    for (const ref of refs) expect(await verdict(policy, ref), ref).toMatch(/^refused: /);
  });
});

describe("resolveMediaPolicy", () => {
  it("adds the channel's mediaLocalRoots (the account's replace them), not under workspaceOnly", async () => {
    const pic = join(home, "outside", "pic.png");
    const channel: OpenClawConfig = { channels: { telegram: { mediaLocalRoots: ["~/outside"] } } };
    expect(await verdict(policyFor(channel), pic)).toBe(pic);
    const account: OpenClawConfig = {
      channels: {
        telegram: {
          mediaLocalRoots: ["~/outside"],
          accounts: { default: { mediaLocalRoots: [] } },
        },
      },
    };
    expect(await verdict(policyFor(account), pic)).toMatch(/^refused/);
    const strict: OpenClawConfig = { ...channel, tools: { fs: { workspaceOnly: true } } };
    expect(await verdict(policyFor(strict), pic)).toMatch(/^refused/);
  });

  it("never opens the state dir, even when a media root or the workspace contains it", async () => {
    const wide: OpenClawConfig = { channels: { telegram: { mediaLocalRoots: [home] } } };
    const policy = policyFor(wide);
    expect(await verdict(policy, "~/at-home.png")).toBe(join(home, "at-home.png"));
    expect(await verdict(policy, "~/.openclaw/gateway.token")).toMatch(/^refused/);
    expect(await verdict(policy, "~/.openclaw/logs/gateway.log")).toMatch(/^refused/);
    const homeWorkspace: OpenClawConfig = { agents: { list: [{ id: "main", workspace: "~" }] } };
    const atHome = policyFor(homeWorkspace);
    expect(await verdict(atHome, "at-home.png")).toBe(join(home, "at-home.png"));
    expect(await verdict(atHome, ".openclaw/workspace/photo.png")).toMatch(/inside the state dir/);
    const stateWorkspace: OpenClawConfig = {
      agents: { list: [{ id: "main", workspace: "~/.openclaw" }] },
    };
    expect(await verdict(policyFor(stateWorkspace), "logs/gateway.log")).toMatch(/^refused/);
  });

  it("keeps credentials refused inside a workspace that lies in the state dir", async () => {
    const agentHome: OpenClawConfig = {
      agents: { list: [{ id: "main", workspace: "~/.openclaw/agents/main" }] },
    };
    const policy = policyFor(agentHome);
    expect(await verdict(policy, "notes.png")).toBe(join(state, "agents", "main", "notes.png"));
    expect(await verdict(policy, "agent/auth-profiles.json")).toMatch(/^refused/);
    expect(await verdict(policy, "sessions/s.jsonl")).toMatch(/^refused/);
    // A channel token file kept in the workspace is a credential too.
    const tokenFile: OpenClawConfig = {
      channels: { telegram: { tokenFile: join(ws, "bot.token") } },
    };
    expect(await verdict(policyFor(tokenFile), "bot.token")).toMatch(/credential/);
  });

  it("refuses the config file and its backup wherever OPENCLAW_CONFIG_PATH puts them", async () => {
    put(join(ws, "conf", "openclaw.json"), "{}");
    put(join(ws, "conf", "openclaw.json.bak"), "{}");
    const policy = resolveMediaPolicy({
      cfg: {},
      paths: resolveStatePaths({
        env: { HOME: home, OPENCLAW_CONFIG_PATH: join(ws, "conf", "openclaw.json") },
      }),
      agentId: "main",
    });
    expect(await verdict(policy, "conf/openclaw.json")).toMatch(/credential/);
    expect(await verdict(policy, "conf/openclaw.json.bak")).toMatch(/credential/);
    expect(await verdict(policy, "photo.png")).toBe(join(ws, "photo.png"));
  });

  it("uses the agent's own workspace: another agent's is outside", async () => {
    const two: OpenClawConfig = { agents: { list: [{ id: "main" }, { id: "other" }] } };
    expect(
      await verdict(policyFor(two, "other"), join(state, "workspace-other", "secret.png")),
    ).toBe(join(state, "workspace-other", "secret.png"));
    expect(await verdict(policyFor(two, "other"), join(ws, "photo.png"))).toMatch(/^refused/);
  });
});
