// Secret redaction for what the gateway sends out (config.* answers, health/status issues): the rules
// live with the config (src/config/redaction.ts: secret paths by structure plus secret key names).
import { redactConfig } from "../config/index.js";

export { isSecretKey, REDACTED } from "../config/index.js";

/** A deep copy of `value` with every secret replaced by the marker (booleans and numbers kept). */
export function redactSecrets(value: unknown): unknown {
  return redactConfig(value);
}
