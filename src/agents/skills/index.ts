// Public surface of skills: discovery from workspace, managed, bundled and extra folders, gating,
// the <available_skills> prompt block and the per-session snapshot.
export { type BundledSkillsDirParams, resolveBundledSkillsDir } from "./bundled-dir.js";
export {
  type DiscoverSkillsParams,
  discoverSkills,
  listSkillSourceDirs,
  readySkills,
  type SkillSourceDir,
} from "./discover.js";
export {
  type FrontmatterResult,
  parseSkillFrontmatter,
  type SkillFrontmatter,
} from "./frontmatter.js";
export {
  type BinaryLookup,
  evaluateSkillGates,
  type GateInput,
  type GateVerdict,
  hasBinary,
  readSkillGates,
} from "./gating.js";
export {
  DEFAULT_PROMPT_DESCRIPTION_CHARS,
  escapeXml,
  formatSkillsForPrompt,
  type PromptSkill,
  SKILLS_PROMPT_INSTRUCTION,
  type SkillsPromptOptions,
} from "./prompt.js";
export {
  isSnapshotUsable,
  SKILLS_SNAPSHOT_VERSION,
  type SkillsSnapshot,
  type SnapshotSkill,
  type TakeSkillsSnapshotParams,
  takeSkillsSnapshot,
} from "./snapshot.js";
export {
  SKILL_SOURCES,
  type SkillDiscovery,
  type SkillGates,
  type SkillProblem,
  type SkillRecord,
  type SkillRequirements,
  type SkillSource,
  type SkillStatus,
  type SkillsHostConfig,
} from "./types.js";
