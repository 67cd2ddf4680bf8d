/**
 * The shared vocabulary of @skillshelf/core. Every feature module (parse, load, match,
 * catalog, session, policy, history, improve) speaks in these types, and adapters only
 * ever see these — never a module's internals.
 */

// ─── Diagnostics ────────────────────────────────────────────────────────────────

export type Severity = "error" | "warning" | "info";

/**
 * One problem found in a skill file or in the set of skills. `code` is stable (safe to
 * switch on, count, or suppress); `message` says what is wrong; `hint` says what to change.
 * `line`/`column` are 1-based and point into `file` (the frontmatter line of the offending
 * key when there is one, else 1).
 */
export interface Diagnostic {
  severity: Severity;
  code: DiagnosticCode;
  message: string;
  file: string;
  line: number;
  column?: number;
  hint: string;
}

/** Stable diagnostic codes. New kinds get a new code; existing codes never change meaning. */
export type DiagnosticCode =
  // parse
  | "file-too-large"
  | "frontmatter-too-large"
  | "binary-file"
  | "empty-file"
  | "no-frontmatter"
  | "unclosed-frontmatter"
  | "yaml-syntax"
  | "yaml-recovered"
  | "frontmatter-not-mapping"
  | "duplicate-key"
  | "missing-name"
  | "missing-description"
  | "invalid-name"
  | "name-too-long"
  | "name-mismatch"
  | "description-too-long"
  | "description-angle-brackets"
  | "compatibility-too-long"
  | "invalid-field"
  | "invalid-security-field"
  | "misspelled-security-field"
  | "unknown-field"
  | "key-case"
  | "body-too-long"
  // load
  | "shadowed"
  | "duplicate-name"
  | "locked"
  | "symlink-escape"
  | "read-error"
  | "kept-last-good"
  // runtime
  | "unknown-tool"
  | "tool-glob-expansion"
  | "tool-argument-limit"
  | "invalid-trigger"
  | "tool-name-clash"
  | "plan-fallback";

// ─── Skills ─────────────────────────────────────────────────────────────────────

/** Where a skill came from, highest precedence first. */
export type Scope = "project" | "user" | "builtin";

/** The frontmatter, normalised: every field has one shape whatever the file wrote. */
export interface SkillMeta {
  name: string;
  description: string;
  license?: string;
  compatibility?: string;
  /** Spec: string → string map (values coerced with String()). */
  metadata?: Record<string, string>;
  whenToUse?: string;
  triggers: string[];
  /** `exclusions`, alias `not_for`. */
  exclusions: string[];
  /** Example user requests (used by stage-1 matching). */
  examples: string[];
  /** `allowed-tools`; undefined = no whitelist (all tools), [] = no tools at all. */
  allowedTools?: string[];
  disallowedTools: string[];
  disableModelInvocation: boolean;
  /** May the user run it by typing "/name"? Default true, except for role skills (sub-agents): false unless the file says `user-invocable: true`. */
  userInvocable: boolean;
  argumentHint?: string;
  /** Named positional arguments for `$name` substitution. */
  arguments: string[];
  version?: string;
  role: boolean;
  /** Optional model id a role sub-agent should use. */
  model?: string;
  priority: number;
  group?: string;
  /** Unknown keys, kept verbatim. */
  extra: Record<string, unknown>;
}

export interface Skill extends SkillMeta {
  /** Markdown body after the frontmatter (trimmed of the leading blank line). */
  body: string;
  scope: Scope;
  /** Absolute path of SKILL.md; `builtin:<name>` for code-defined skills. */
  file: string;
  /** Folder holding SKILL.md (resources live below it); undefined for builtins. */
  dir?: string;
  /** sha256 (hex) of the file's exact bytes. */
  hash: string;
  /** A builtin that nothing may override. */
  locked: boolean;
  /** 1-based line where the body starts in the file. */
  bodyLine: number;
}

/** A skill defined in code (builtin scope), e.g. the default role skills. */
export interface BuiltinSkill {
  /** Full SKILL.md text, or the fields directly. */
  content?: string;
  meta?: Partial<SkillMeta> & { name: string; description: string };
  body?: string;
  locked?: boolean;
}

export type ParseMode = "lenient" | "strict";

export interface ParseOptions {
  /** Path reported in diagnostics (and whose folder name the `name` is checked against). */
  path?: string;
  mode?: ParseMode;
  /** Check name against this folder name; defaults to the folder of `path`. `false` disables. */
  folderName?: string | false;
}

export interface ParseResult {
  /**
   * Undefined when the file was skipped (an `error` diagnostic says why). In lenient mode a
   * security field it cannot read (`invalid-security-field`, `misspelled-security-field`) is
   * an error too, yet the skill is returned: maximally restricted, never unrestricted.
   */
  skill?: Omit<Skill, "scope" | "file" | "dir" | "locked"> & { file: string };
  diagnostics: Diagnostic[];
}

/** Anything that can hand out skills by name: a shelf, or a fixed list in tests. */
export interface SkillSource {
  skills(): readonly Skill[];
  get(name: string): Skill | undefined;
}

// ─── Matching (stage 1) ─────────────────────────────────────────────────────────

export type MatchReason =
  | { kind: "trigger"; trigger: string; matched: string }
  | { kind: "example"; example: string; score: number }
  | { kind: "lexical"; terms: string[]; score: number }
  | { kind: "name"; matched: string }
  | { kind: "semantic"; score: number }
  | { kind: "usage"; lastUsed?: string; count: number };

export interface Candidate {
  name: string;
  score: number;
  reasons: MatchReason[];
}

export interface Vetoed {
  name: string;
  exclusion: string;
  matched: string;
}

/** A skill some words of the message pointed at that stage 1 did not make a candidate. */
export interface Rejected {
  name: string;
  /** What it scored (its lexical score alone when only generic words matched). */
  score: number;
  /**
   * `generic-words`: only words common across the shelf's skills matched ("write", "help",
   * "写"); `below-threshold`: the evidence was under `minScore`.
   */
  reason: "generic-words" | "below-threshold";
  /** The message words it matched. */
  terms: string[];
}

export interface MatchResult {
  candidates: Candidate[];
  /** Skills a trigger/lexical signal pointed at but an exclusion vetoed. */
  vetoed: Vetoed[];
  /** Top two within the ambiguity margin: a host may ask the user which one. */
  ambiguous: boolean;
  /** Near-misses, best first, when asked for (`nearMisses`): why they are not candidates. */
  rejected?: Rejected[];
}


export interface MatchOptions {
  /** Max candidates returned (default 5). */
  limit?: number;
  /** Include skills hidden from the model (default false). */
  includeHidden?: boolean;
}

// ─── Sessions, plans, policy ────────────────────────────────────────────────────

export interface ActiveSkill {
  name: string;
  by: "model" | "user" | "code";
  args?: string;
  /** ISO timestamp of activation. */
  at: string;
}

/** Plain JSON: checkpoint it anywhere, rebuild it from messages when stateless. */
export interface SessionState {
  active: ActiveSkill[];
}

export type ActivationErrorType =
  | "NOT_FOUND"
  | "MODEL_INVOCATION_DISABLED"
  | "NOT_USER_INVOCABLE"
  | "ALREADY_ACTIVE"
  | "INVALID_ARGUMENTS"
  | "GROUP_CONFLICT";

/** What a model reads back. Structured, with a message that tells it what to do next. */
export type ToolResult<TData = unknown, TError extends string = string> =
  | { status: "success"; data: TData; message: string }
  | { status: "error"; error_type: TError; message: string };

export type ActivationResult = ToolResult<
  { name: string; instructions: string; allowedTools: string[] | null; resources: string[] },
  ActivationErrorType
>;

export type GuardResult =
  | { allowed: true }
  | { allowed: false; result: ToolResult<never, "TOOL_NOT_ALLOWED"> & { status: "error" } };

/** A tool the host should offer the model, as JSON Schema (provider-neutral). */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface PlanInput {
  /** Latest user message (explicit "/name args" is handled here). */
  message?: string;
  /** Names of the host's own tools. */
  tools: readonly string[];
  /**
   * `message` was already planned at an earlier step of this turn, by a session the host has
   * since rebuilt from a checkpoint (e.g. LangChain, once per model call): offer the same
   * candidates, but don't run its "/name" or emit its candidates again.
   */
  planned?: boolean;
}

export interface TurnPlan {
  /** Everything to append to the system prompt: catalog + bodies of active skills. */
  system: string;
  /** Activation tools to offer this call (skill_<name> ... and activate_skill). */
  activationTools: ToolSpec[];
  /** Host tools the model may use now (all of them when no skill restricts). */
  allowedTools: string[];
  /** Names the model should see: allowedTools + activation tool names. */
  activeToolNames: string[];
  candidates: Candidate[];
  ambiguous: boolean;
  /** Set when the message was an explicit "/name args" invocation. */
  explicit?: ActivationResult;
  /** Diagnostics about this plan (e.g. whitelisted names that match no tool). */
  diagnostics: Diagnostic[];
}

export interface Role {
  name: string;
  description: string;
  instructions: string;
  /** Tool names/globs the role may use; undefined = no restriction. */
  allowedTools?: string[];
  /** Tool names/globs the role may never use (its skill's `disallowed-tools`). */
  disallowedTools?: string[];
  model?: string;
  scope: Scope;
  file: string;
}

// ─── Events ─────────────────────────────────────────────────────────────────────

export type SkillEvent =
  | {
      type: "candidates";
      at: string;
      message: string;
      candidates: Candidate[];
      vetoed: Vetoed[];
      ambiguous: boolean;
    }
  | { type: "activated"; at: string; skill: string; by: "model" | "user" | "code"; args?: string }
  | {
      type: "activation-refused";
      at: string;
      skill: string;
      by: "model" | "user" | "code";
      error_type: string;
    }
  | { type: "deactivated"; at: string; skill: string }
  | {
      type: "tool-blocked";
      at: string;
      tool: string;
      active: string[];
      /** The active skill whose `allowed-tools`/`disallowed-tools` ruled the tool out. */
      skill?: string;
    }
  | { type: "skill-read"; at: string; skill: string; path: string }
  | { type: "skill-written"; at: string; skill: string; version?: string; before?: string; after: string }
  | { type: "delegated"; at: string; role: string; task: string; tools: string[] };

export interface EventSink {
  emit(event: SkillEvent): void;
}

// ─── Model bridge for the improvement loop ─────────────────────────────────────

/** The one thing core needs from a model. Each adapter provides it for its framework. */
export type Generate = (input: { system: string; prompt: string; signal?: AbortSignal }) => Promise<string>;

// ─── Session (implemented in session/; adapters code against this) ────────────

/**
 * One conversation's skill state and the rules that follow from it. Created by
 * `shelf.session(state?)` or rebuilt from a message history by `shelf.sessionFromHistory()`.
 */
export interface Session {
  /** Live, plain-JSON state: checkpoint it as is. */
  readonly state: SessionState;
  /** Everything a host needs for one model call. Handles an explicit "/name args" message. */
  plan(input: PlanInput): TurnPlan;
  activate(name: string, options?: { by?: ActiveSkill["by"]; args?: string }): ActivationResult;
  deactivate(name: string): boolean;
  /** Whether a tool name is one of skillshelf's activation tools (skill_<name> or activate_skill). */
  isActivationTool(toolName: string): boolean;
  /** Run an activation tool call from the model; undefined when `toolName` is not one. */
  callActivationTool(toolName: string, input: unknown): ActivationResult | undefined;
  /** Execution-time enforcement: may this host tool run now? */
  guard(toolName: string): GuardResult;
  /** Of the host's tools, those allowed now. */
  allowedTools(tools: readonly string[]): string[];
  /** Active skills, in activation order. */
  active(): Skill[];
  toJSON(): SessionState;
}

/** A neutral view of a conversation, for rebuilding a session in stateless hosts. */
export type HistoryItem =
  | {
      kind: "user";
      text: string;
      /**
       * This message's turn was already planned (its "/name" run, its candidates counted):
       * replay it even when it is the last item. A stateless host sets it when it re-derives
       * the state mid-turn (e.g. for each tool call), so nothing is emitted or counted twice.
       */
      planned?: boolean;
    }
  | { kind: "tool-call"; toolName: string; input: unknown; output?: unknown };
