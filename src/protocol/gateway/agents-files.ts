// `agents.files.list` / `agents.files.get` / `agents.files.set`: an agent's bootstrap files (AGENTS.md,
// SOUL.md …) read and written over the gateway, OpenClaw's names and shapes. Only the known bootstrap
// names are accepted (a bare file name in the agent's workspace, never a path).
import { type Static, Type } from "typebox";

const closed = { additionalProperties: false } as const;
const NonEmptyString = Type.String({ minLength: 1 });

/** One file: `missing` when the workspace has none yet; `content` only from get and set. */
export const AgentsFileEntrySchema = Type.Object(
  {
    name: NonEmptyString,
    path: NonEmptyString,
    missing: Type.Boolean(),
    size: Type.Optional(Type.Integer({ minimum: 0 })),
    updatedAtMs: Type.Optional(Type.Integer({ minimum: 0 })),
    content: Type.Optional(Type.String()),
  },
  closed,
);

/** `agents.files.list`. */
export const AgentsFilesListParamsSchema = Type.Object({ agentId: NonEmptyString }, closed);
/** `agents.files.get`. */
export const AgentsFilesGetParamsSchema = Type.Object(
  { agentId: NonEmptyString, name: NonEmptyString },
  closed,
);
/** `agents.files.set`: replaces the whole file (atomically). */
export const AgentsFilesSetParamsSchema = Type.Object(
  { agentId: NonEmptyString, name: NonEmptyString, content: Type.String() },
  closed,
);

/** `agents.files.list` result. */
export const AgentsFilesListResultSchema = Type.Object(
  { agentId: NonEmptyString, workspace: NonEmptyString, files: Type.Array(AgentsFileEntrySchema) },
  closed,
);
/** `agents.files.get` result. */
export const AgentsFilesGetResultSchema = Type.Object(
  { agentId: NonEmptyString, workspace: NonEmptyString, file: AgentsFileEntrySchema },
  closed,
);
/** `agents.files.set` result. */
export const AgentsFilesSetResultSchema = Type.Object(
  {
    ok: Type.Literal(true),
    agentId: NonEmptyString,
    workspace: NonEmptyString,
    file: AgentsFileEntrySchema,
  },
  closed,
);

/** The three methods' params, spread into METHOD_PARAMS. */
export const AGENTS_FILES_PARAMS = {
  "agents.files.list": AgentsFilesListParamsSchema,
  "agents.files.get": AgentsFilesGetParamsSchema,
  "agents.files.set": AgentsFilesSetParamsSchema,
} as const;
/** Their results, spread into METHOD_RESULTS. */
export const AGENTS_FILES_RESULTS = {
  "agents.files.list": AgentsFilesListResultSchema,
  "agents.files.get": AgentsFilesGetResultSchema,
  "agents.files.set": AgentsFilesSetResultSchema,
} as const;

/** Static type of {@link AgentsFileEntrySchema}. */
export type AgentsFileEntry = Static<typeof AgentsFileEntrySchema>;
