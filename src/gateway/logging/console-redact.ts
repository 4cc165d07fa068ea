// The console masking of secrets (`logging.redactSensitive`, `logging.redactPatterns`), shared by the
// gateway's console and `pincer logs`: regex patterns matched inside the formatted text (pino's own
// `redact` censors object paths only, so it cannot mask a token inside a message).

/** Secret shapes masked on the console unless `logging.redactSensitive` is "off". */
export const DEFAULT_REDACT_PATTERNS: readonly string[] = [
  String.raw`\bsk-[A-Za-z0-9_-]{8,}`,
  String.raw`\bBearer\s+([A-Za-z0-9._~+/-]+=*)`,
  String.raw`"(?:token|password|secret|apiKey|api_key|botToken|appToken)"\s*:\s*"([^"]+)"`,
  String.raw`\b(?:token|password|secret|apiKey|api_key)=([^\s&"]+)`,
  String.raw`--(?:token|password)\s+(\S+)`,
  String.raw`\bgh[pousr]_[A-Za-z0-9]{20,}`,
  String.raw`\bxox[abprs]-[A-Za-z0-9-]{10,}`,
  String.raw`\b\d{6,}:[A-Za-z0-9_-]{30,}`,
];

/** Compiles a pattern: `/body/flags`, else a raw regex used with `gi`. */
export function compileRedactPattern(pattern: string): RegExp {
  const literal = /^\/(.+)\/([a-z]*)$/s.exec(pattern);
  if (literal) {
    const flags = literal[2].includes("g") ? literal[2] : `${literal[2]}g`;
    return new RegExp(literal[1], flags);
  }
  return new RegExp(pattern, "gi");
}

/** Keeps the first 6 and last 4 characters of long secrets; short ones become `***`. */
export function maskSecret(secret: string): string {
  return secret.length >= 18 ? `${secret.slice(0, 6)}…${secret.slice(-4)}` : "***";
}

/** A function masking every match of `patterns` (the last capture group, else the whole match). */
export function createRedactor(patterns: readonly string[]): (text: string) => string {
  const compiled = patterns.map(compileRedactPattern);
  return (text) => {
    let out = text;
    for (const regex of compiled) {
      out = out.replace(regex, (match: string, ...rest: unknown[]) => {
        const groups = rest.slice(0, -2).filter((group) => typeof group === "string") as string[];
        const secret = groups.at(-1);
        if (!secret) return maskSecret(match);
        const at = match.lastIndexOf(secret);
        return `${match.slice(0, at)}${maskSecret(secret)}${match.slice(at + secret.length)}`;
      });
    }
    return out;
  };
}
