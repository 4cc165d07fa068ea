// `pincer agents route`: which agent and session an inbound message reaches, and why —
// the answer to "why did this message reach the wrong agent". `--stdin` does it in bulk.
import type { OpenClawConfig } from "../../protocol/config/index.js";
import {
  explainAgentRoute,
  type ResolveAgentRouteInput,
  resolveAgentRoute,
} from "../../routing/index.js";
import type { InputOf } from "../command.js";
import {
  type CliContext,
  CliError,
  ExitCode,
  printJson,
  printLine,
  style,
} from "../command-context.js";
import { loadForCli } from "../load.js";
import type { routeOptions } from "./commands.js";

type Peer = { kind: string; id: string };

/** Parses `kind:id` (split at the first colon, so ids like `-100:topic:42` survive). */
function parsePeerSpec(spec: string, flag: string): Peer {
  const at = spec.indexOf(":");
  const kind = at > 0 ? spec.slice(0, at).trim().toLowerCase() : "";
  const id = at > 0 ? spec.slice(at + 1).trim() : "";
  if (!["direct", "dm", "group", "channel"].includes(kind) || id === "") {
    throw new CliError(
      `${flag} "${spec}": expected KIND:ID with KIND direct, dm, group or channel`,
      ExitCode.usage,
    );
  }
  return { kind, id };
}

function peerFrom(value: unknown, field: string): Peer | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return parsePeerSpec(value, field);
  const peer = value as { kind?: unknown; id?: unknown };
  if (
    typeof peer.kind === "string" &&
    (typeof peer.id === "string" || typeof peer.id === "number")
  ) {
    return { kind: peer.kind, id: String(peer.id) };
  }
  throw new CliError(`${field}: expected "kind:id" or {"kind", "id"}`);
}

/** Turns one `--stdin` JSON line into a route input; `cfg` in the line replaces the active config. */
function inputFromJson(line: Record<string, unknown>, cfg: OpenClawConfig): ResolveAgentRouteInput {
  if (typeof line.channel !== "string" || line.channel.trim() === "")
    throw new CliError(`"channel" is required`);
  const roles = line.memberRoleIds ?? line.roles;
  if (roles !== undefined && !(Array.isArray(roles) && roles.every((r) => typeof r === "string"))) {
    throw new CliError(`"memberRoleIds": expected an array of strings`);
  }
  const text = (key: string) => {
    const value = line[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value === "string" || typeof value === "number") return String(value);
    throw new CliError(`"${key}": expected a string`);
  };
  return {
    cfg: (line.cfg as OpenClawConfig | undefined) ?? cfg,
    channel: line.channel,
    accountId: text("accountId") ?? text("account"),
    peer: peerFrom(line.peer, "peer"),
    parentPeer: peerFrom(line.parentPeer, "parentPeer"),
    guildId: text("guildId"),
    teamId: text("teamId"),
    memberRoleIds: roles as string[] | undefined,
  };
}

async function runStdin(ctx: CliContext, cfg: OpenClawConfig): Promise<number> {
  const text = await ctx.readStdin();
  let failed = false;
  const lines = text.split("\n");
  for (const [index, raw] of lines.entries()) {
    if (raw.trim() === "") continue;
    try {
      const route = resolveAgentRoute(
        inputFromJson(JSON.parse(raw) as Record<string, unknown>, cfg),
      );
      ctx.stdout(`${JSON.stringify(route)}\n`);
    } catch (err) {
      // A bad line is reported in-band so the caller can match answers to questions.
      if (!(err instanceof CliError) && !(err instanceof SyntaxError)) throw err;
      failed = true;
      ctx.stdout(`${JSON.stringify({ line: index + 1, error: err.message })}\n`);
    }
  }
  return failed ? ExitCode.failure : ExitCode.ok;
}

/** Resolves one message from flags (or many from stdin) and prints the route and the reasoning. */
export async function run(
  ctx: CliContext,
  { opts }: InputOf<typeof routeOptions>,
): Promise<number> {
  const loaded = loadForCli(ctx, { requireValid: true });
  const cfg = loaded.config as OpenClawConfig;
  if (opts.stdin) return runStdin(ctx, cfg);
  if (!opts.channel) throw new CliError("--channel is required (or use --stdin)", ExitCode.usage);
  const roles = opts.roles
    ?.split(",")
    .map((r) => r.trim())
    .filter(Boolean);
  const explained = explainAgentRoute({
    cfg,
    channel: opts.channel,
    accountId: opts.account,
    peer: opts.peer ? parsePeerSpec(opts.peer, "--peer") : undefined,
    parentPeer: opts.parentPeer ? parsePeerSpec(opts.parentPeer, "--parent-peer") : undefined,
    guildId: opts.guild,
    teamId: opts.team,
    memberRoleIds: roles,
  });
  if (opts.json) {
    printJson(ctx, explained);
    return ExitCode.ok;
  }
  const s = style(ctx);
  const { route } = explained;
  const which =
    explained.matchedBindingIndex === undefined
      ? ""
      : ` (bindings[${explained.matchedBindingIndex}])`;
  printLine(ctx, `${s.bold("agent")}        ${s.cyan(route.agentId)}`);
  printLine(ctx, `${s.bold("session key")}  ${route.sessionKey}`);
  printLine(ctx, `${s.bold("matched by")}   ${route.matchedBy}${which}`);
  printLine(
    ctx,
    `${s.bold("account")}      ${route.accountId}   dmScope ${route.dmScope}, groupScope ${route.groupScope}`,
  );
  printLine(ctx);
  printLine(ctx, s.bold("tiers, most specific first:"));
  for (const tier of explained.tiers) {
    const mark =
      tier.outcome === "matched"
        ? s.green("✔")
        : tier.outcome === "no-match"
          ? s.red("✖")
          : s.dim("·");
    printLine(ctx, `  ${mark} ${tier.tier.padEnd(22)} ${tier.reason}`);
    for (const candidate of tier.candidates) {
      if (candidate.rejected)
        printLine(
          ctx,
          s.dim(
            `      bindings[${candidate.bindingIndex}] → ${candidate.agentId}: ${candidate.rejected}`,
          ),
        );
    }
  }
  for (const note of explained.notes) printLine(ctx, s.yellow(`note: ${note}`));
  return ExitCode.ok;
}
