/**
 * createShelf: the one object a host holds. It only wires the feature modules together;
 * every decision lives in the module that owns it (load/, match/, catalog/, session/,
 * policy/, roles/, history/, improve/).
 *
 * CONTRACT NOTE (scaffold): the method groups below are owned by different work streams.
 * Edit only your group, with small edits.
 */
import type {
  BuiltinSkill,
  Diagnostic,
  EventSink,
  HistoryItem,
  MatchOptions,
  MatchResult,
  ParseMode,
  Role,
  Session,
  SessionState,
  Skill,
  SkillSource,
} from "./types.js";

export interface ShelfOptions {
  /** Project root; project scope = <root>/.skillshelf/skills and <root>/.agents/skills. Default: process.cwd(). */
  root?: string;
  /** Override the project skill folders (absolute or relative to root). */
  projectDirs?: string[];
  /** Override the user skill folders. Default: ~/.skillshelf/skills, ~/.agents/skills. `[]` disables. */
  userDirs?: string[];
  /** Opt in to `.claude/skills` folders (project and user). */
  claude?: boolean;
  /** Code-defined skills (lowest precedence). The default role skills are added unless `builtinRoles: false`. */
  builtins?: BuiltinSkill[];
  builtinRoles?: boolean;
  mode?: ParseMode;
  /** Where skillshelf keeps its own state (usage, history, improvements, events). Default <root>/.skillshelf. */
  stateDir?: string;
  /** Event sink; default a JSONL file under stateDir. `false` disables. */
  events?: EventSink | false;
}

export interface RefreshResult {
  changed: boolean;
  added: string[];
  updated: string[];
  removed: string[];
  diagnostics: Diagnostic[];
}

export interface Shelf extends SkillSource {
  readonly options: Readonly<ShelfOptions>;

  // ── loading (issue 2) ──
  skills(): readonly Skill[];
  get(name: string): Skill | undefined;
  diagnostics(): readonly Diagnostic[];
  refresh(): Promise<RefreshResult>;
  /** Opt-in file watching; refresh() stays the source of truth. Returns a stop function. */
  watch(onChange?: (result: RefreshResult) => void): () => void;

  // ── runtime (issue 3) ──
  match(message: string, options?: MatchOptions): MatchResult;
  roles(): Role[];
  role(name: string): Role | undefined;
  session(state?: SessionState): Session;
  /** Rebuild a session from a conversation (activation tool calls, explicit "/name" user messages). */
  sessionFromHistory(history: readonly HistoryItem[]): Session;
  noteRead(path: string): void;

  close(): Promise<void>;
}
