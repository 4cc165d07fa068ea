import { describe, expect, it } from "vitest";
import type { SandboxSpec } from "../backend.js";
import { checkedMounts } from "./mounts.js";

const guard = { stateDir: "/srv/state", configPath: "/etc/pincer/openclaw.json" };
const base: SandboxSpec = {
  backend: "docker",
  agentId: "main",
  sessionKey: "agent:main:main",
  scope: "session",
  scopeKey: "session:agent:main:main",
  workspaceAccess: "none",
  workspaceDir: "/srv/state/sandboxes/main",
  workspaceRoot: "/srv/state/sandboxes",
  binds: [],
  network: "none",
  env: {},
  readOnlyRoot: true,
  capDrop: ["ALL"],
  image: "img",
  configHash: "h",
};

function error(overrides: Partial<SandboxSpec>): string {
  const result = checkedMounts({ ...base, ...overrides }, guard);
  return result.ok ? "" : result.error;
}

const bind = (hostPath: string, containerPath = "/mnt") => ({
  hostPath,
  containerPath,
  readOnly: true,
});

describe("sandbox mounts", () => {
  it("mounts the workspace at /workspace, read-only for ro, then the binds", () => {
    const result = checkedMounts(
      {
        ...base,
        workspaceAccess: "ro",
        workspaceDir: "/srv/state/workspace-main",
        binds: [bind("/data")],
      },
      guard,
    );
    expect(result).toEqual({
      ok: true,
      value: [
        { hostPath: "/srv/state/workspace-main", containerPath: "/workspace", readOnly: true },
        { hostPath: "/data", containerPath: "/mnt", readOnly: true },
      ],
    });
  });

  it("never mounts the state dir, the config file or anything holding them", () => {
    expect(error({ binds: [bind("/srv/state")] })).toMatch(/would expose the state dir/);
    expect(error({ binds: [bind("/srv")] })).toMatch(/would expose the state dir/);
    expect(error({ binds: [bind("/etc/pincer")] })).toMatch(/config file/);
    expect(error({ binds: [bind("/srv/state/credentials")] })).toMatch(/inside the state dir/);
    expect(error({ workspaceDir: "/srv/state", workspaceAccess: "rw" })).toMatch(
      /the sandbox workspace would expose/,
    );
    expect(error({ workspaceDir: "/srv/state/agents/main", workspaceAccess: "rw" })).toMatch(
      /outside any workspace/,
    );
  });

  it("keeps other sandboxes' workspaces out and mount targets off / and /workspace", () => {
    expect(error({ binds: [bind("/srv/state/sandboxes/other")] })).toMatch(/workspaceRoot/);
    expect(error({ binds: [bind("/data", "/")] })).toMatch(/replace the container's root/);
    expect(error({ binds: [bind("/data", "/workspace/x")] })).toMatch(/inside \/workspace/);
    expect(error({ binds: [bind("data")] })).toMatch(/is not absolute/);
    expect(error({ binds: [bind("/srv/state/sandboxes/main/sub")] })).toBe("");
  });
});
