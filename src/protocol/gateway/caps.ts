// Connect capabilities this gateway understands (the `caps` array of the connect params, listed in
// hello-ok `features.capabilities`). A client opts in per connection; without a cap it gets
// OpenClaw's shapes unchanged.

/**
 * `text-deltas`: chat deltas carry only the text added since the previous delta this connection got
 * (`deltaText`; `replace: true` when it missed some and `deltaText` is the whole text so far), and
 * `agent` assistant events are not sent (their text is the chat events' text).
 */
export const TEXT_DELTAS_CAP = "text-deltas";

/** Every connect capability the gateway supports, as hello-ok lists them. */
export const GATEWAY_CAPS: readonly string[] = [TEXT_DELTAS_CAP];
