// The last system prompt of each session, reused while every input is the same object or value:
// the config object, the agent, the bootstrap snapshot (BootstrapCache hands out the same object
// while the files are unchanged), the skills prompt, the tool list and the model. Bounded: the
// least recently used session is dropped first.
import type { BootstrapFile } from "../../agents/bootstrap.js";

/** Sessions whose prompt is kept when nothing else is configured. */
export const DEFAULT_MEMO_SESSIONS = 1024;

/** Everything the prompt text depends on, compared by identity (objects) or value (strings). */
export interface PromptInputs {
  cfg: object;
  agentId: string;
  agentName: string | undefined;
  workspace: string;
  mode: string;
  bootstrapFiles: readonly BootstrapFile[];
  skillsPrompt: string | undefined;
  model: string;
  tools: ReadonlyArray<{ name: string; description?: string }>;
}

interface Memo {
  inputs: PromptInputs;
  text: string;
}

function sameTools(a: PromptInputs["tools"], b: PromptInputs["tools"]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (a[i]!.name !== b[i]!.name || a[i]!.description !== b[i]!.description) return false;
  }
  return true;
}

function sameInputs(a: PromptInputs, b: PromptInputs): boolean {
  return (
    a.cfg === b.cfg &&
    a.agentId === b.agentId &&
    a.agentName === b.agentName &&
    a.workspace === b.workspace &&
    a.mode === b.mode &&
    a.bootstrapFiles === b.bootstrapFiles &&
    a.skillsPrompt === b.skillsPrompt &&
    a.model === b.model &&
    sameTools(a.tools, b.tools)
  );
}

/** Per-session memo of the system prompt text. */
export class SystemPromptMemo {
  private readonly memos = new Map<string, Memo>();

  constructor(private readonly capacity: number = DEFAULT_MEMO_SESSIONS) {}

  /** The memoized text for `sessionKey` when `inputs` equal the last ones, else `build()`'s (kept). */
  get(sessionKey: string, inputs: PromptInputs, build: () => string): string {
    const memo = this.memos.get(sessionKey);
    if (memo) this.memos.delete(sessionKey);
    const text = memo && sameInputs(memo.inputs, inputs) ? memo.text : build();
    this.memos.set(sessionKey, { inputs, text });
    while (this.memos.size > Math.max(1, this.capacity)) {
      this.memos.delete(this.memos.keys().next().value as string);
    }
    return text;
  }
}
