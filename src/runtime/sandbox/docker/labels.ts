// The container's name and labels: how a sandbox is found again (per scope), told apart from
// other containers, and listed. Label names follow OpenClaw's (`openclaw.sandbox`,
// `openclaw.sessionKey`, `openclaw.configHash`, `openclaw.createdAtMs`) so `docker ps --filter
// label=openclaw.sandbox=1` shows both; the agent, scope and workspace root are Pincer's additions.
import { createHash } from "node:crypto";
import type { SandboxInstance, SandboxScope, SandboxSpec } from "../backend.js";

/** Marks a sandbox container (OpenClaw's label). */
export const LABEL_SANDBOX = "openclaw.sandbox";
/** The session that created the container (OpenClaw's label). */
export const LABEL_SESSION = "openclaw.sessionKey";
/** Hash of the settings that shaped the container; a different hash means recreate. */
export const LABEL_CONFIG_HASH = "openclaw.configHash";
/** Creation time, epoch ms (OpenClaw's label). */
export const LABEL_CREATED_AT = "openclaw.createdAtMs";
/** The agent the container belongs to. */
export const LABEL_AGENT = "openclaw.agentId";
/** `session`, `agent` or `shared`. */
export const LABEL_SCOPE = "openclaw.scope";
/** The scope key (`session:<key>`, `agent:<id>`, `shared`). */
export const LABEL_SCOPE_KEY = "openclaw.scopeKey";
/** The `sandbox.workspaceRoot` the container was made for: one install's containers, not another's. */
export const LABEL_WORKSPACE_ROOT = "pincer.workspaceRoot";

/** Prefix of every container name Pincer gives a sandbox. */
export const CONTAINER_PREFIX = "pincer-sbx-";

/**
 * The container name of a scope: readable (the scope key, slugged) and unique per install (a hash of
 * the workspace root and the scope key, so two state dirs on one host never share a container).
 */
export function containerName(spec: Pick<SandboxSpec, "scopeKey" | "workspaceRoot">): string {
  const slug = spec.scopeKey
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 48);
  const hash = createHash("sha256")
    .update(spec.workspaceRoot)
    .update("\0")
    .update(spec.scopeKey)
    .digest("hex")
    .slice(0, 10);
  return `${CONTAINER_PREFIX}${slug ? `${slug}-` : ""}${hash}`;
}

/** The labels a new container gets. */
export function containerLabels(spec: SandboxSpec, createdAt: number): Record<string, string> {
  return {
    [LABEL_SANDBOX]: "1",
    [LABEL_SESSION]: spec.sessionKey,
    [LABEL_CONFIG_HASH]: spec.configHash,
    [LABEL_CREATED_AT]: String(createdAt),
    [LABEL_AGENT]: spec.agentId,
    [LABEL_SCOPE]: spec.scope,
    [LABEL_SCOPE_KEY]: spec.scopeKey,
    [LABEL_WORKSPACE_ROOT]: spec.workspaceRoot,
  };
}

/** The part of `docker inspect`'s JSON the backend reads. */
export interface InspectedContainer {
  Id?: string;
  Name?: string;
  Created?: string;
  Config?: { Labels?: Record<string, string> | null; Image?: string };
  State?: { Running?: boolean; Status?: string };
}

/** A Pincer sandbox container as a {@link SandboxInstance}; undefined for a foreign container. */
export function instanceFromInspect(
  container: InspectedContainer,
  lastUsedAt: number | undefined,
): SandboxInstance | undefined {
  const labels = container.Config?.Labels ?? {};
  const id = container.Name?.replace(/^\//, "");
  const agentId = labels[LABEL_AGENT];
  const scopeKey = labels[LABEL_SCOPE_KEY];
  if (labels[LABEL_SANDBOX] !== "1" || !id?.startsWith(CONTAINER_PREFIX)) return undefined;
  if (agentId === undefined || scopeKey === undefined) return undefined;
  const labelled = Number(labels[LABEL_CREATED_AT]);
  const createdAt = Number.isFinite(labelled) ? labelled : Date.parse(container.Created ?? "");
  const sessionKey = labels[LABEL_SESSION];
  const image = container.Config?.Image;
  return {
    backend: "docker",
    id,
    agentId,
    ...(sessionKey ? { sessionKey } : {}),
    scope: parseScope(labels[LABEL_SCOPE]),
    scopeKey,
    configHash: labels[LABEL_CONFIG_HASH] ?? "",
    ...(image ? { image } : {}),
    createdAt,
    lastUsedAt: lastUsedAt ?? createdAt,
    running: container.State?.Running === true,
  };
}

function parseScope(value: string | undefined): SandboxScope {
  return value === "agent" || value === "shared" ? value : "session";
}
