// OpenClaw's argument shapes of `pincer pairing list|approve`: the channel positionally or with
// `--channel` (both must agree), `approve <code>` when the code alone says which request it is,
// `--account` to narrow (or check) the account. One place turns them into the one pending request.

import { openCliPairingStore } from "../../channels/pairing/pairing-access.js";
import { normalizePairingCode } from "../../channels/pairing/pairing-code.js";
import type { ListedPairingRequest, PairingStore } from "../../channels/pairing/pairing-store.js";
import { silentLogger } from "../../lib/logger.js";
import { normalizeAccountId } from "../../routing/ids.js";
import { checkChannelKnown, knownChannelIdsOf } from "../channels/ids.js";
import { type CliContext, CliError, ExitCode } from "../command-context.js";
import { loadForCli } from "../load.js";

/** The channel of `list [channel] --channel C`: either form, never two different ones. */
export function channelArgument(
  positional: string | undefined,
  flag: string | undefined,
): string | undefined {
  const a = positional?.trim().toLowerCase() || undefined;
  const b = flag?.trim().toLowerCase() || undefined;
  if (a && b && a !== b)
    throw new CliError(`two channels given: "${positional}" and --channel ${flag}`, ExitCode.usage);
  return a ?? b;
}

/** `approve <code>`, `approve <channel> <code>` or `approve --channel C <code>`: the channel (if
 * given) and the code. */
export function approveArguments(
  args: readonly string[],
  flagChannel: string | undefined,
): { channel?: string; code: string } {
  const [first = "", second] = args;
  if (second === undefined) {
    if (first.trim() === "") throw new CliError("a pairing code is required", ExitCode.usage);
    const channel = channelArgument(undefined, flagChannel);
    return { ...(channel ? { channel } : {}), code: first };
  }
  const channel = channelArgument(first, flagChannel);
  return { ...(channel ? { channel } : {}), code: second };
}

/** Inputs of {@link findPendingCode}. */
export interface PendingCodeQuery {
  store: PairingStore;
  code: string;
  channel?: string;
  account?: string;
  /** Channel ids the config names (to tell "you gave a channel, not a code"). */
  knownChannels: readonly string[];
}

const where = (r: ListedPairingRequest) => `${r.channel}/${r.meta.accountId}`;

/** The one pending request with `code` (in `channel`/`account` when given); a clear error when there
 * is none, when `--account` names another account, or when the code is pending in several places. */
export function findPendingCode(query: PendingCodeQuery): ListedPairingRequest {
  const code = normalizePairingCode(query.code);
  const hits = query.store.list(query.channel).filter((r) => r.code === code);
  const account = query.account?.trim() ? normalizeAccountId(query.account) : undefined;
  const matching = account ? hits.filter((r) => r.meta.accountId === account) : hits;
  if (matching.length === 1) return matching[0]!;
  if (matching.length > 1) {
    throw new CliError(
      `pairing code ${code} is pending on ${matching.map(where).join(", ")}: say which with --channel and --account`,
    );
  }
  if (hits.length > 0) {
    throw new CliError(
      `pairing code ${code} belongs to ${hits.map(where).join(", ")}, not account ${account}`,
    );
  }
  const asChannel = query.code.trim().toLowerCase();
  if (!query.channel && query.knownChannels.includes(asChannel)) {
    throw new CliError(
      `"${query.code}" is a channel, not a code: pincer pairing approve ${asChannel} <code>`,
      ExitCode.usage,
    );
  }
  const scope = [
    query.channel ? ` on channel ${query.channel}` : "",
    account ? ` for account ${account}` : "",
  ].join("");
  throw new CliError(
    `no pending pairing code ${code}${scope} (expired? codes last 1 h; see pincer pairing list)`,
  );
}

/** Channel ids the schema names, the config's `channels` holds, or pending requests use. */
export function knownChannelIds(params: {
  store: PairingStore;
  configChannels: unknown;
}): string[] {
  return knownChannelIdsOf(
    params.configChannels,
    params.store.list().map((r) => r.channel),
  );
}

/** The pending request `approve`/`reject` act on, from their shared argument shapes (`<code>`,
 * `<channel> <code>`, `--channel`, `--account`); unknown channels and codes are refused. */
export async function resolvePendingRequest(
  ctx: CliContext,
  input: { args: string[]; channel?: string; account?: string },
): Promise<{ store: PairingStore; request: ListedPairingRequest; done: () => Promise<void> }> {
  const { channel, code } = approveArguments(input.args, input.channel);
  const { loaded, store, done } = await openCliPairing(ctx);
  try {
    const knownChannels = knownChannelIds({ store, configChannels: loaded.config.channels });
    checkChannelKnown(channel, knownChannels);
    const request = findPendingCode({
      store,
      code,
      ...(channel ? { channel } : {}),
      ...(input.account ? { account: input.account } : {}),
      knownChannels,
    });
    return { store, request, done };
  } catch (err) {
    await done();
    throw err;
  }
}

/** The profile's config and pairing store (PostgreSQL with cluster.store); call `done()` after. */
export async function openCliPairing(ctx: CliContext) {
  const loaded = loadForCli(ctx, { requireValid: false });
  const opened = await openCliPairingStore({
    stateDir: loaded.paths.stateDir,
    cluster: loaded.config.cluster?.store,
    logger: silentLogger,
  });
  return { loaded, ...opened };
}
