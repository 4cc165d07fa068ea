// Whether a restart (chat `/restart`) would come back up on the config file as it is now: a file
// that does not validate, or auth settings the gateway cannot start with, refuse the restart so the
// running gateway is kept instead of being stopped for a start that fails.
import type { LiveConfigStatus } from "../../config/live-config.js";

/** Why a restart would not come back up now, or undefined when it would. */
export function restartRefusal(status: LiveConfigStatus): string | undefined {
  if (!status.file.valid) {
    return `the config file ${status.path} is invalid (see pincer config validate)`;
  }
  if (status.rejected?.reason === "auth-unusable") return status.rejected.message;
  return undefined;
}
