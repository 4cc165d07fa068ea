// The `agent:bootstrap` hook point: code that adds, drops or replaces the files injected into the
// prompt, after they are read and before the caps are applied. The registry is a plain value the
// caller owns (no module state); a failing hook is reported and skipped, never fatal.

/** Name of the hook point, as OpenClaw's internal hooks call it. */
export const AGENT_BOOTSTRAP_HOOK = "agent:bootstrap";

/** Which session the files are for: the main session, any other session, or a sub-agent run. */
export type BootstrapMode = "main" | "other" | "subagent";

/** One file to inject, before the caps: read from the workspace or supplied by a hook. */
export interface BootstrapSource {
  /** File name shown to the model, e.g. `AGENTS.md`. */
  name: string;
  /** Absolute path of the file. */
  path: string;
  /** Full text; for a missing file, the one-line missing-file marker. */
  content: string;
  /** True when the file does not exist and `content` is the marker. */
  missing: boolean;
}

/** What a hook may return for a file: `missing` is optional (an added file defaults to present). */
export type BootstrapHookFile = Omit<BootstrapSource, "missing"> & { missing?: boolean };

/** What an `agent:bootstrap` hook receives; `files` is a copy the hook may mutate freely. */
export interface BootstrapHookContext {
  agentId: string;
  sessionKey?: string;
  workspaceDir: string;
  mode: BootstrapMode;
  files: BootstrapSource[];
}

/** A hook: returns the new file list (add, drop, replace or reorder entries). */
export type BootstrapHook = (
  ctx: BootstrapHookContext,
) => BootstrapHookFile[] | Promise<BootstrapHookFile[]>;

/** A registered hook with the name used in warnings. */
export interface RegisteredBootstrapHook {
  name: string;
  hook: BootstrapHook;
}

/** Ordered set of `agent:bootstrap` hooks, owned by whoever builds the prompt. */
export interface BootstrapHookRegistry {
  /** Adds a hook after the existing ones; returns a function that removes it. */
  register: (hook: BootstrapHook, options?: { name?: string }) => () => void;
  /** The hooks in registration order. */
  list: () => readonly RegisteredBootstrapHook[];
}

/** Creates an empty hook registry; pass it to `loadBootstrapFiles({ hooks })`. */
export function createBootstrapHookRegistry(): BootstrapHookRegistry {
  let hooks: RegisteredBootstrapHook[] = [];
  return {
    register: (hook, options) => {
      const entry = { name: options?.name ?? (hook.name || `hook #${hooks.length + 1}`), hook };
      hooks = [...hooks, entry];
      return () => {
        hooks = hooks.filter((candidate) => candidate !== entry);
      };
    },
    list: () => hooks,
  };
}

function isHookFile(value: unknown): value is BootstrapHookFile {
  if (typeof value !== "object" || value === null) return false;
  const file = value as Record<string, unknown>;
  return (
    typeof file.name === "string" &&
    file.name !== "" &&
    typeof file.path === "string" &&
    typeof file.content === "string" &&
    (file.missing === undefined || typeof file.missing === "boolean")
  );
}

/** Inputs for {@link runBootstrapHooks}. */
export interface RunBootstrapHooksParams {
  registry: BootstrapHookRegistry;
  ctx: BootstrapHookContext;
}

/** Runs the hooks in order, each on the previous one's output; failures become warnings. */
export async function runBootstrapHooks(
  params: RunBootstrapHooksParams,
): Promise<{ files: BootstrapSource[]; warnings: string[] }> {
  let files = params.ctx.files.map((file) => ({ ...file }));
  const warnings: string[] = [];
  for (const { name, hook } of params.registry.list()) {
    const copy = files.map((file) => ({ ...file }));
    try {
      const result: unknown = await hook({ ...params.ctx, files: copy });
      if (!Array.isArray(result) || !result.every(isHookFile)) {
        warnings.push(
          `${AGENT_BOOTSTRAP_HOOK} hook "${name}" returned something other than a list of files ({ name, path, content }); its changes were ignored`,
        );
        continue;
      }
      files = result.map((file) => ({ ...file, missing: file.missing === true }));
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      warnings.push(
        `${AGENT_BOOTSTRAP_HOOK} hook "${name}" failed: ${reason}; its changes were ignored`,
      );
    }
  }
  return { files, warnings };
}
