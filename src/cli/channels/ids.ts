// The channel ids a CLI argument may name: those the config schema lists (telegram, whatsapp, …),
// those the config's `channels` holds (extension channels), and any extra the caller knows (pending
// pairing requests). A typo is a usage error with a did-you-mean instead of a silent no-op.
import { closestMatch } from "../../lib/edit-distance.js";
import { ChannelsConfigSchema } from "../../protocol/config/channels.js";
import { CliError, ExitCode } from "../command-context.js";

/** Keys of `channels` that are settings, not channels. */
const NOT_CHANNELS = new Set(["defaults", "modelByChannel"]);

/** Channel ids (lowercase) the schema names, `configChannels` holds, or `extra` adds. */
export function knownChannelIdsOf(
  configChannels: unknown,
  extra: readonly string[] = [],
): string[] {
  const fromConfig =
    configChannels && typeof configChannels === "object" ? Object.keys(configChannels) : [];
  const named = [...Object.keys(ChannelsConfigSchema.properties), ...fromConfig].filter(
    (id) => !NOT_CHANNELS.has(id),
  );
  return [...new Set([...named, ...extra].map((id) => id.toLowerCase()))];
}

/** Refuses a channel nobody knows, with a did-you-mean (usage error; nothing read or changed). */
export function checkChannelKnown(channel: string | undefined, known: readonly string[]): void {
  if (channel === undefined || known.includes(channel)) return;
  const guess = closestMatch(channel, known);
  throw new CliError(
    `unknown channel "${channel}"${guess ? ` (did you mean ${guess}?)` : ""}; channels: ${[...known].sort().join(", ")}`,
    ExitCode.usage,
  );
}
