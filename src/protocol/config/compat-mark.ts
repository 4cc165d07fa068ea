// The schema annotation that marks a config key accepted for OpenClaw compatibility but not acted on.
// Kept free of TypeBox so the run-time walker (`src/config/compat-keys.ts`) loads without it.

/** Annotation key of a schema node Pincer accepts (so an OpenClaw config loads) but does not act on. */
export const COMPAT_MARK_KEY = "x-pincer";
/** Annotation key of the mark's note: what is missing and which issue/feature would implement it. */
export const COMPAT_NOTE_KEY = "x-pincer-note";
