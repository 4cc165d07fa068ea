// The user-visible sentence for a provider that could not be reached: which provider, which host, and
// why (DNS, refused, TLS, reset), found from the error text's code or by probing the provider's host.
import {
  type ConnectionCause,
  connectionKind,
  describeCause,
  probeConnection,
} from "../../lib/connection-cause.js";

/** Inputs of {@link describeUnreachable}. */
export interface UnreachableInput {
  provider: string;
  baseUrl: string;
  /** The provider error's text (pi-ai keeps only the message, e.g. "Connection error."). */
  errorText: string;
  /** The probe (a parameter so callers choose its timeout). */
  probe?: (url: string) => Promise<ConnectionCause | undefined>;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function causeInText(text: string, host: string): ConnectionCause | undefined {
  for (const match of text.matchAll(/\b([A-Z][A-Z0-9_]{3,})\b/g)) {
    const code = match[1];
    const kind = connectionKind(code);
    if (kind) return { kind, code, host, detail: describeCause({ kind, code, host }) };
  }
  return undefined;
}

/** `model provider "acme" unreachable: DNS lookup of api.acme.test failed (ENOTFOUND)`. */
export async function describeUnreachable(input: UnreachableInput): Promise<string> {
  const host = hostOf(input.baseUrl);
  const cause =
    causeInText(input.errorText, host) ??
    (await (input.probe ?? ((url) => probeConnection(url)))(input.baseUrl));
  const why = cause
    ? cause.detail
    : `${host}: ${input.errorText.trim() || "connection failed"} (reachable now; transient)`;
  return `model provider "${input.provider}" unreachable: ${why}`;
}
