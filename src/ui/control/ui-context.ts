// What every Control UI page receives from the shell: the one gateway connection (requests whose
// failures are values, event subscriptions), what hello-ok said, and navigation between pages.
// Pages talk to the gateway only through this, never through their own socket.
import type { HelloOk } from "../../protocol/gateway/index.js";

/** A request's outcome: the payload, or the gateway's (or the connection's) error as a value. */
export type UiOutcome<T> =
  | { ok: true; payload: T }
  | { ok: false; error: { code: string; message: string; details?: unknown } };

/** The shell's services, handed to each page element as its `ctx` property. */
export interface UiContext {
  /** Calls a gateway method; `expectFinal` waits past an `accepted` ack for the final response. */
  request<T = unknown>(
    method: string,
    params?: Record<string, unknown>,
    options?: { expectFinal?: boolean; timeoutMs?: number },
  ): Promise<UiOutcome<T>>;
  /** Listens to every gateway event; returns the unsubscribe function (call it on disconnect). */
  subscribe(listener: (event: string, payload: unknown) => void): () => void;
  /** The current connection's hello-ok (methods, events, snapshot, server version). */
  readonly hello: HelloOk;
  /** Goes to another page: `navigate("sessions", { agent: "main" })` → `#/sessions?agent=main`. */
  navigate(page: string, query?: Record<string, string>): void;
}
