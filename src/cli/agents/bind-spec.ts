// OpenClaw's `--bind <channel[:accountId]>` and what it means for `bindings[]`: a route binding
// `{agentId, match: {channel, accountId?}}` (no accountId: the channel's default account; `*`: every
// account). Shared by `agents add`, `agents bind` and `agents unbind`, which edit `bindings[]` through
// the config editor.
import type { ConfigEdit } from "../../config/index.js";
import type { Binding, BindingMatch, OpenClawConfig } from "../../protocol/config/index.js";
import { normalizeAccountId, normalizeAgentId } from "../../routing/ids.js";
import { CliError, ExitCode } from "../command-context.js";

/** A `--bind` value: the channel and, optionally, the account. */
export interface BindSpec {
  channel: string;
  accountId?: string;
}

/** Parses `--bind channel[:accountId]`; a usage error names the bad value. */
export function parseBindSpec(spec: string): BindSpec {
  const [channel = "", accountId, extra] = spec.split(":").map((part) => part.trim());
  if (channel === "" || extra !== undefined || accountId === "") {
    throw new CliError(
      `--bind "${spec}": expected channel or channel:accountId, e.g. telegram:alerts`,
      ExitCode.usage,
    );
  }
  return accountId === undefined
    ? { channel: channel.toLowerCase() }
    : {
        channel: channel.toLowerCase(),
        accountId: accountId === "*" ? "*" : normalizeAccountId(accountId),
      };
}

/** `telegram` or `telegram:ops`, as typed. */
export function formatBindSpec(spec: BindSpec): string {
  return spec.accountId === undefined ? spec.channel : `${spec.channel}:${spec.accountId}`;
}

/** Whether a binding's match is exactly channel (+ account): no peer, guild, team or roles. */
export function isPlainChannelMatch(match: BindingMatch | undefined): boolean {
  if (!match) return false;
  return Object.keys(match).every((key) => key === "channel" || key === "accountId");
}

/** Whether `binding` routes exactly `spec` (a plain channel/account match, same account). */
export function bindingMatchesSpec(binding: Binding, spec: BindSpec): boolean {
  const match = binding.match;
  if (!isPlainChannelMatch(match) || match.channel.toLowerCase() !== spec.channel) return false;
  const account = match.accountId === undefined ? undefined : match.accountId;
  const normalized =
    account === undefined || account === "*" ? account : normalizeAccountId(account);
  return normalized === spec.accountId;
}

/** The config's `bindings[]` (absent or malformed: none). */
export function bindingsOf(cfg: unknown): Binding[] {
  const list = (cfg as OpenClawConfig | undefined)?.bindings;
  return Array.isArray(list) ? list : [];
}

/** Deletes of `bindings[i]` for each index, highest first so earlier indices stay valid. */
export function deleteBindingEdits(indices: readonly number[]): ConfigEdit[] {
  return [...indices]
    .sort((a, b) => b - a)
    .map((index) => ({ op: "delete", path: `bindings[${index}]` }));
}

/** Edits that route each spec to `agentId`, as OpenClaw does: an existing identical binding of the
 * agent is kept; the agent's channel-only binding is narrowed in place to the account given; a spec
 * already routed to another agent is an error (unbind it there first). */
export function bindEdits(params: {
  cfg: unknown;
  agentId: string;
  specs: readonly BindSpec[];
}): { edits: ConfigEdit[]; added: BindSpec[]; kept: BindSpec[] } | { error: string } {
  const bindings = bindingsOf(params.cfg);
  const edits: ConfigEdit[] = [];
  const added: BindSpec[] = [];
  const kept: BindSpec[] = [];
  const upgraded = new Set<number>();
  const seen = new Set<string>();
  for (const spec of params.specs) {
    // `--bind telegram --bind telegram` is one binding, not two.
    if (seen.has(formatBindSpec(spec))) continue;
    seen.add(formatBindSpec(spec));
    const owner = bindings.find((b) => bindingMatchesSpec(b, spec));
    if (owner && normalizeAgentId(owner.agentId) !== params.agentId) {
      return {
        error: `${formatBindSpec(spec)} is already bound to agent ${owner.agentId}: unbind it there first (pincer agents unbind --agent ${owner.agentId} --bind ${formatBindSpec(spec)})`,
      };
    }
    if (owner) {
      kept.push(spec);
      continue;
    }
    const channelOnly = bindings.findIndex(
      (b, i) =>
        !upgraded.has(i) &&
        normalizeAgentId(b.agentId) === params.agentId &&
        bindingMatchesSpec(b, { channel: spec.channel }),
    );
    if (spec.accountId !== undefined && channelOnly !== -1) {
      upgraded.add(channelOnly);
      edits.push({
        op: "set",
        path: `bindings[${channelOnly}].match.accountId`,
        value: spec.accountId,
      });
    } else {
      const match: BindingMatch = {
        channel: spec.channel,
        ...(spec.accountId ? { accountId: spec.accountId } : {}),
      };
      edits.push({ op: "append", path: "bindings", value: { agentId: params.agentId, match } });
    }
    added.push(spec);
  }
  return { edits, added, kept };
}
