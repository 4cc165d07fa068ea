// `streaming` (OpenClaw's reply preview setting) for the channels whose messages can be edited:
// spread into those channels' shapes (`channels.ts`); elsewhere the shared key stays compat-marked.
import { Type } from "typebox";

const StreamingModeSchema = Type.Union(
  [Type.Literal("off"), Type.Literal("partial"), Type.Literal("block"), Type.Literal("progress")],
  {
    description:
      'off, or partial: a preview message edited as the reply grows, then replaced by the reply ("block" and "progress" preview the same way here).',
  },
);

/** The `streaming` key: true / a mode / `{ mode }`; off by default. */
export const previewStreamingProps = {
  streaming: Type.Optional(
    Type.Union(
      [
        Type.Boolean({ description: "true = partial." }),
        StreamingModeSchema,
        Type.Object(
          { mode: Type.Optional(StreamingModeSchema) },
          { additionalProperties: true, description: "Streaming settings." },
        ),
      ],
      { description: "Reply preview streaming (edits one message as the reply is written)." },
    ),
  ),
};
