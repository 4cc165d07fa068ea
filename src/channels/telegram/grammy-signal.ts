// grammY's Node typings name the `abort-controller` shim's AbortSignal; at runtime grammY only adds an
// "abort" listener to the signal it is given, which Node's native AbortSignal supports.
import type { Api } from "grammy";

/** The AbortSignal type grammY's API methods declare. */
export type GrammySignal = NonNullable<Parameters<Api["getMe"]>[0]>;

/** Passes a native AbortSignal to grammY (a type-level conversion only). */
export function toGrammySignal(signal: AbortSignal): GrammySignal {
  return signal as unknown as GrammySignal;
}
