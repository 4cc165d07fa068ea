import { describe, expect, it } from "vitest";
import type { SandboxSpec } from "../backend.js";
import { createArgs } from "./create-args.js";
import { containerName } from "./labels.js";
import { mountArg } from "./mounts.js";

const spec: SandboxSpec = {
  backend: "docker",
  agentId: "family",
  sessionKey: "agent:family:whatsapp:group:123@g.us",
  scope: "agent",
  scopeKey: "agent:family",
  workspaceAccess: "rw",
  workspaceDir: "/home/u/family",
  workspaceRoot: "/home/u/.openclaw/sandboxes",
  binds: [],
  network: "none",
  env: { LANG: "C.UTF-8" },
  readOnlyRoot: true,
  capDrop: ["ALL"],
  image: "openclaw-sandbox:bookworm-slim",
  configHash: "abc",
};

function args(overrides: Partial<SandboxSpec> = {}): string[] {
  const result = createArgs({
    spec: { ...spec, ...overrides },
    name: "pincer-sbx-x",
    mounts: [{ hostPath: "/home/u/family", containerPath: "/workspace", readOnly: false }],
    createdAt: 1000,
  });
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

/** The values given to `flag`, in order. */
function values(list: string[], flag: string): string[] {
  return list.flatMap((arg, i) => (arg === flag ? [list[i + 1] as string] : []));
}

describe("docker create arguments", () => {
  it("locks the container down by default and ends with the image and its long-lived command", () => {
    const list = args();
    expect(values(list, "--network")).toEqual(["none"]);
    expect(values(list, "--cap-drop")).toEqual(["ALL"]);
    expect(values(list, "--security-opt")).toEqual(["no-new-privileges"]);
    expect(list).toContain("--read-only");
    expect(values(list, "--tmpfs")).toEqual(["/tmp", "/var/tmp", "/run"]);
    expect(values(list, "--env")).toEqual(["LANG=C.UTF-8"]);
    expect(values(list, "--label")).toContain("openclaw.sandbox=1");
    expect(values(list, "--label")).toContain("openclaw.createdAtMs=1000");
    expect(values(list, "--mount")).toEqual(["type=bind,source=/home/u/family,target=/workspace"]);
    expect(list.slice(-3)).toEqual(["openclaw-sandbox:bookworm-slim", "sleep", "infinity"]);
    expect(list).not.toContain("--memory");
  });

  it("passes limits, user and a writable root through as configured", () => {
    const list = args({
      memory: "1g",
      cpus: 1.5,
      pidsLimit: 100,
      user: "1000:1000",
      readOnlyRoot: false,
      network: "bridge",
    });
    expect(values(list, "--memory")).toEqual(["1g"]);
    expect(values(list, "--cpus")).toEqual(["1.5"]);
    expect(values(list, "--pids-limit")).toEqual(["100"]);
    expect(values(list, "--user")).toEqual(["1000:1000"]);
    expect(values(list, "--network")).toEqual(["bridge"]);
    expect(list).not.toContain("--read-only");
  });

  it("refuses an environment variable name Docker would misread", () => {
    const result = createArgs({
      spec: { ...spec, env: { "A=B": "x" } },
      name: "n",
      mounts: [],
      createdAt: 0,
    });
    expect(result).toEqual({
      ok: false,
      error: 'sandbox.docker.env: "A=B" is not a valid variable name.',
    });
  });

  it("quotes mount paths holding a comma, as Docker's CSV parser expects", () => {
    expect(mountArg({ hostPath: "/a,b", containerPath: "/src", readOnly: true })).toBe(
      'type=bind,"source=/a,b",target=/src,readonly',
    );
  });

  it("names containers per scope and per workspace root", () => {
    const name = containerName(spec);
    expect(name).toMatch(/^pincer-sbx-agent-family-[0-9a-f]{10}$/);
    expect(containerName({ ...spec, workspaceRoot: "/other" })).not.toBe(name);
    expect(containerName({ ...spec, scopeKey: "agent:other" })).not.toBe(name);
  });
});
