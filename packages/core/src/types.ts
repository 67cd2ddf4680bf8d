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
  | "nul-character"
  | "field-not-applied"
  | "invalid-parameters"
  | "parameters-conflict"
  | "invalid-steps"
  | "missing-step-file"
  | "paths-over-budget"
  // load
  | "shadowed"
  | "duplicate-name"
  | "locked"
  | "role-shadowed"
  | "symlink-escape"
  | "read-error"
  | "kept-last-good"
  | "prebuilt-unusable"
  | "prebuilt-stale"
  | "prebuilt-mismatch"
  // runtime
  | "unknown-tool"
  | "tool-glob-expansion"
  | "tool-argument-limit"
  | "invalid-trigger"
  | "tool-name-clash"
  | "plan-fallback"
  // trust and dependencies
  | "untrusted"
  | "trust-changed"
  | "missing-tools"
  // configuration
  | "config-invalid"
  | "disabled";

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
  /** Claude Code's `argument-hint`, shown after `/name` in listings; a list `[a, b]` is kept as the text `[a, b]`. */
  argumentHint?: string;
  /** Named positional arguments for `$name` substitution. */
  arguments: string[];
  /** `parameters`: a JSON Schema of the skill's typed arguments, as written (a `schema.json` beside SKILL.md wins over it). */
  parameters?: Record<string, unknown>;
  version?: string;
  role: boolean;
  /** Model id the skill asks for (Claude Code's `model`), carried for every skill; role sub-agents run on it. */
  model?: string;
  /** Claude Code's `context: fork`: the skill asks to run in a sub-agent with its own context. */
  context?: "fork";
  /** Claude Code's `agent`: which sub-agent a `context: fork` skill runs as. */
  agent?: string;
  /** Claude Code's `paths`: globs (relative, `/` separated) naming the files the skill is for. */
  paths?: string[];
  /** Claude Code's `hooks`, exactly as YAML means them; carried, never run by skillshelf. */
  hooks?: Record<string, unknown>;
  /** Claude Code's `effort` (`low`, `medium`, `high`, `xhigh`, `max`); carried, not applied. */
  effort?: string;
  priority: number;
  group?: string;
  /** The shelf (seed 004's domain) the skill belongs to: `domain:`, else its category folder. */
  domain?: string;
  /** Ordered workflow steps, each with its prompt in `steps/NN-<id>.md`: run by core's workflow runner. */
  steps?: WorkflowStep[];
  /** Default per-step timeout of this skill's steps, in seconds (`step-timeout`). */
  stepTimeout?: number;
  /** Default retries of this skill's steps (`step-retries`). */
  stepRetries?: number;
  /** Unknown keys, kept verbatim. */
  extra: Record<string, unknown>;
}

/** One step of a workflow skill (seed 004's chapter): a contract of named inputs and one output. */
export interface WorkflowStep {
  id: string;
  title: string;
  /** Names this step reads: the user's parameters and earlier steps' outputs. */
  input: string[];
  /** The name its result is stored under for later steps. */
  output: string;
  /** What must hold afterwards: the name of a check the host registered, else a text the model checks against. */
  verify?: string;
  /** Seconds (default: the skill's `step-timeout`, else 120). */
  timeout?: number;
  /** Extra attempts after a failure (default: the skill's `step-retries`, else 2). */
  retries?: number;
  /** Who runs it: `model` (default), `tool:<host tool>`, or a function the host registered by that name. */
  run?: string;
  /** Largest output in characters before the model is asked to condense it (default 8,000). */
  maxOutput?: number;
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
   * "写"); `unfamiliar-request`: its evidence was enough, but much of the request is in words
   * the shelf does not use, far more than in the shelf's own examples, so stage 1 offered
   * nothing (its score is the one left after the coverage and familiarity discounts);
   * `lone-word`: stage 1 offered nothing because the skill matched only one telling word of the
   * request while another telling word of it is not the skill's, and one word with another
   * pointing elsewhere is weak support (its score is the one left);
   * `below-threshold`: the evidence was under `minScore`, or stage 1 offered nothing because
   * no candidate's evidence, discounted by the share of the request it leaves unexplained,
   * reached it (its score is the one left).
   */
  reason: "generic-words" | "unfamiliar-request" | "lone-word" | "below-threshold";
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
  /**
   * Report up to this many near-misses in `rejected` (skills some words pointed at that are
   * not candidates, best first, with the reason). Default 0: not reported.
   */
  nearMisses?: number;
}

// ─── Sessions, plans, policy ────────────────────────────────────────────────────

export interface ActiveSkill {
  name: string;
  by: "model" | "user" | "code";
  args?: string;
  /** ISO timestamp of activation. */
  at: string;
  /**
   * The skill's tool limits as its file said when it was activated. A file edited, removed or
   * shadowed during the conversation never widens them: they change when the skill ends.
   */
  policy?: PinnedPolicy;
  /** The model ended the skill: its instructions are gone; its tool limits hold until the user's next message. */
  finished?: boolean;
  /** The id of the tool call that activated it (a host asking again for that call gets the same answer). */
  call?: string;
}

/** The whitelist of an active skill, as written (before aliases). */
export interface PinnedPolicy {
  allowedTools?: string[];
  disallowedTools: string[];
}

/** How long an activated skill lasts (see the core README, "A skill's scope"). */
export type SkillScope = "task" | "turn" | "session";

/** Why a skill stopped being active. */
export type EndReason =
  /** The user typed the end command (`/done`). */
  | "user"
  /** The model called the end tool. */
  | "model"
  /** A new request that stage 1 does not route to the skill (scope "task"). */
  | "new-request"
  /** A new user message (scope "turn"), or the user started another skill by command. */
  | "new-turn"
  /** The host's code. */
  | "code"
  /** The user's next message after the model ended it: its held tool limits are dropped. */
  | "released"
  /** A `context: fork` skill's sub-agent answered (or failed); it never became active in the conversation. */
  | "sub-agent-done";

export interface EndedSkill {
  name: string;
  why: EndReason;
}

/** Plain JSON: checkpoint it anywhere, rebuild it from messages when stateless. */
export interface SessionState {
  active: ActiveSkill[];
  /** The user message this state was last planned for, and the skills its arrival ended. */
  turn?: { id: string; ended?: EndedSkill[] };
}

export type ActivationErrorType =
  | "NOT_FOUND"
  | "MODEL_INVOCATION_DISABLED"
  | "NOT_USER_INVOCABLE"
  | "ALREADY_ACTIVE"
  | "INVALID_ARGUMENTS"
  | "GROUP_CONFLICT"
  /** An exclusion of the skill matched the current request. */
  | "EXCLUDED"
  /** A project skill the user has not trusted (see the core README, "Trusting project skills"). */
  | "UNTRUSTED"
  /** A skill on the disable list (the config file's `disabled`, or the shelf's option). */
  | "DISABLED"
  /** A `context: fork` skill, and the host starts no sub-agent for it (its body never joins the conversation). */
  | "FORK_UNAVAILABLE"
  /** The model called an activation tool the plan of this step did not offer it. */
  | "TOOL_NOT_OFFERED";

/** What a model reads back. Structured, with a message that tells it what to do next. */
export type ToolResult<TData = unknown, TError extends string = string> =
  | { status: "success"; data: TData; message: string }
  | { status: "error"; error_type: TError; message: string };

/** What a successful activation hands the model. */
export interface ActivationData {
  name: string;
  instructions: string;
  /** The host tools allowed while it is active; null when it does not restrict. */
  allowedTools: string[] | null;
  resources: string[];
  /** Its whitelist as written, pinned for as long as it is active (a stateless host replays it). */
  policy?: PinnedPolicy;
  /** A skill with parameters: its arguments as checked, defaults filled in (what a workflow's steps receive). */
  arguments?: Record<string, unknown>;
}

export type ActivationResult = ToolResult<ActivationData, ActivationErrorType> | InvalidArgumentsResult;

/** One argument that does not fit a skill's parameters, said so the model can send the right value. */
export interface ArgumentProblem {
  /** The argument, as a dotted path (`time_range`, `filters.0.field`); "" for the whole object. */
  field: string;
  /** What is wrong with the value that was sent. */
  problem: string;
  /** What to send instead. */
  expected: string;
}

/** Arguments that do not fit the skill's parameters: the skill is not activated, and `errors` say what to send. */
export interface InvalidArgumentsResult {
  status: "error";
  error_type: "INVALID_ARGUMENTS";
  message: string;
  errors: ArgumentProblem[];
}

/** The end tool's result. */
export type EndResult = ToolResult<{ ended: string[] }, "NOT_ACTIVE" | "INVALID_ARGUMENTS">;

/** Why a read of an active skill's own file was refused. */
export type SkillFileErrorType =
  | "NOT_ACTIVE"
  | "INVALID_ARGUMENTS"
  | "INVALID_PATH"
  | "NOT_FOUND"
  | "NOT_A_FILE";

/** One page of a file in an active skill's folder (the confined reader's result). */
export type SkillFileResult = ToolResult<
  {
    skill: string;
    /** The file, relative to the skill's folder. */
    path: string;
    /** Its size in bytes. */
    size: number;
    /** "text": `content` holds the page; "binary": described, never dumped. */
    kind: "text" | "binary";
    /** The media type guessed from the bytes or the extension ("text/markdown", "image/png", …). */
    mediaType: string;
    /** Byte offset of this page. */
    offset: number;
    /** The page's text (text files only). */
    content?: string;
    /** Where the next page starts; null at the end of the file. */
    nextOffset: number | null;
  },
  SkillFileErrorType
>;

/** Why a skill script did not run. */
export type ScriptErrorType =
  | "NOT_ACTIVE"
  | "INVALID_ARGUMENTS"
  | "INVALID_PATH"
  | "NOT_FOUND"
  | "NOT_APPROVED"
  | "NO_INTERPRETER"
  | "SPAWN_FAILED";

/** A script's run: exit code, the tails of its output, whether the timeout stopped it. */
export type ScriptRunResult = ToolResult<
  {
    skill: string;
    script: string;
    args: string[];
    /** null when a signal ended it (the timeout, or something else). */
    exitCode: number | null;
    signal: string | null;
    timedOut: boolean;
    /** The last `maxOutput` bytes of each stream. */
    stdout: string;
    stderr: string;
    /** Bytes of each stream dropped before the tail. */
    stdoutDropped: number;
    stderrDropped: number;
  },
  ScriptErrorType
>;

/** Any of skillshelf's own tools' results. */
export type SkillToolResult = ActivationResult | EndResult | SkillFileResult | ScriptRunResult;

/** Why a workflow skill's run did not finish (see the core README, "Workflow skills"). */
export type WorkflowErrorType =
  | "STEP_FAILED"
  | "DECLINED"
  | "INVALID_WORKFLOW"
  | "SKILL_CHANGED"
  | "MISSING_PARAMETERS"
  | "INVALID_ARGUMENTS";

/** What the model reads when it started a workflow skill: the run, step by step, and its outputs. */
export type WorkflowToolResult =
  | {
      status: "success";
      data: {
        name: string;
        run_id: string;
        steps: Array<{ id: string; title: string; attempts: number; resumed: boolean }>;
        /** Each step's output, by its `output` name. */
        outputs: Record<string, unknown>;
        /** One line per step, as shown to the user. */
        progress: string[];
        /** As the activation's: a conversation rebuilt from its history keeps the skill's pinned limits. */
        policy?: PinnedPolicy;
        arguments?: Record<string, unknown>;
      };
      message: string;
    }
  | {
      status: "error";
      error_type: WorkflowErrorType;
      message: string;
      run_id: string;
      /** The step that failed, and why (`timeout`, `verify-failed`, …). */
      step?: string;
      reason?: string;
      /** Steps done before it (their outputs are kept in the checkpoint). */
      completed?: string[];
      /** The activation's pinned limits: they hold (the skill ended) until the user's next message. */
      policy?: PinnedPolicy;
    };

/** Why a host tool call was refused. */
export type GuardErrorType =
  /** The active skills' whitelist rules the tool (or these arguments) out. */
  | "TOOL_NOT_ALLOWED"
  /** The call would change skill files or skillshelf's state (see `protectSkillFiles`). */
  | "SKILL_FILES_PROTECTED";

export type GuardResult =
  | { allowed: true }
  | { allowed: false; result: ToolResult<never, GuardErrorType> & { status: "error" } };

/** One tool call of a model response, as every framework has it. */
export interface ToolCall {
  /** The call's id, when the framework gives one. */
  id?: string;
  name: string;
  /** The call's arguments (an object, or its JSON text). */
  input?: unknown;
}

/** A tool the host should offer the model, as JSON Schema (provider-neutral). */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface PlanInput {
  /**
   * The latest user message, when the session was not opened with it (`history`/`message`).
   * A message other than the one last planned starts a new turn.
   */
  message?: string;
  /** The host's tools for this call, when they differ from those the session was opened with. */
  tools?: readonly string[];
}

export interface TurnPlan {
  /** Everything to append to the system prompt: catalog, notes, bodies of active skills. */
  system: string;
  /** skillshelf's own tools to offer this call: `skill_<name>`, `activate_skill`, `end_skill`. */
  tools: ToolSpec[];
  /**
   * skillshelf's fixed tools (`activate_skill`, `end_skill`, …) this call does not offer. A
   * model may call one anyway: register these beside `tools`, hidden from the model, so the
   * call reaches the session and reads its structured refusal, not a framework's unknown-tool error.
   */
  unoffered?: ToolSpec[];
  /** Host tools the model may use now (all of them when no skill restricts). */
  allowedTools: string[];
  /** Names the model should see: allowedTools + skillshelf's tool names. */
  activeToolNames: string[];
  candidates: Candidate[];
  /** Skills an exclusion vetoed for this message: offered through no path this turn. */
  vetoed: Vetoed[];
  /** The top two candidates are too close to call: the system text asks the model to ask the user. */
  ambiguous: boolean;
  /** Skills that this turn's user message ended (the note in `system` tells the model). */
  ended: EndedSkill[];
  /** Set when the message was an explicit "/name args" invocation. */
  explicit?: ActivationResult;
  /**
   * The model id this call should run on: the `model` of the most recently activated running
   * skill that names one. Adapters map it through the host's `resolveModel`; unset = the
   * host's model.
   */
  model?: string;
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
  /**
   * Its skill says `disable-model-invocation: true`: the model never delegates to it (the
   * delegation tool refuses it with `MODEL_INVOCATION_DISABLED`); a host's code may still
   * build its agent.
   */
  userOnly?: true;
  scope: Scope;
  file: string;
}

// ─── Events ─────────────────────────────────────────────────────────────────────

/**
 * Which conversation an event belongs to, so one user's log can be pulled out of a server
 * shared by many: the session that emitted it (one per model call) and the host's thread
 * and run ids, when the host passed them to `openSession({ ids })`.
 */
export interface EventIds {
  session?: string;
  thread?: string;
  run?: string;
}

export type SkillEvent = EventIds &
  (
    | {
        type: "candidates";
        at: string;
        /** The user message; in the default JSONL log only its first characters (see `messageSha256`). */
        message: string;
        /** Set by a log that does not keep the text verbatim: the first 16 hex of the message's sha256. */
        messageSha256?: string;
        candidates: Candidate[];
        vetoed: Vetoed[];
        ambiguous: boolean;
      }
    | {
        type: "activated";
        at: string;
        skill: string;
        by: "model" | "user" | "code";
        args?: string;
        /** As `messageSha256`, for `args`. */
        argsSha256?: string;
      }
    | {
        type: "activation-refused";
        at: string;
        skill: string;
        by: "model" | "user" | "code";
        error_type: string;
      }
    | { type: "deactivated"; at: string; skill: string; why?: EndReason }
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
    | {
        type: "delegated";
        at: string;
        role: string;
        task: string;
        /** As `messageSha256`, for `task`. */
        taskSha256?: string;
        tools: string[];
      }
  );

export interface EventSink {
  emit(event: SkillEvent): void;
}

// ─── Model bridge for the improvement loop ─────────────────────────────────────

/** The one thing core needs from a model. Each adapter provides it for its framework. */
export type Generate = (input: { system: string; prompt: string; signal?: AbortSignal }) => Promise<string>;

// ─── Session (implemented in session/; adapters code against this) ────────────

/**
 * One conversation's skill state and the rules that follow from it, for one model call.
 * Opened by `shelf.session({ state?, history?, tools })`: from a checkpointed state, or
 * rebuilt from the conversation, with the host's tools known up front.
 */
export interface Session {
  /** Live, plain-JSON state: checkpoint it as is. */
  readonly state: SessionState;
  /** Everything a host needs for this model call. */
  plan(input?: PlanInput): TurnPlan;
  /**
   * The model's response, every tool call in it, before any of them runs. Activations and
   * ends in it take effect first, so every call of the response is judged as if they had
   * already happened; their results are kept for `callSkillTool`.
   */
  respond(calls: readonly ToolCall[]): void;
  /** Whether a tool name is one of skillshelf's own tools (activation, end, file reader, scripts). */
  isSkillTool(toolName: string): boolean;
  /** Run a call to an activation tool or the end tool; undefined for any other name. */
  callSkillTool(call: ToolCall): ActivationResult | EndResult | undefined;
  /**
   * The activation call that records the user's "/name" in the conversation, due before the
   * model first answers it (undefined: nothing to record). Only a session rebuilt from the
   * history (no `state`) has one, and only for a skill with tool limits: a host that replays
   * the history on every model call makes this call itself, without the model, and runs it
   * like any tool call; core answers it with the limits the command started with, and later
   * replays read them from that answer, not from the skill file as it is then. The model is
   * never shown the record (`isCommandRecordId`). The adapter kit's `respondingModel` does all this.
   */
  commandRecord(): ToolCall | undefined;
  /**
   * Run a call to any of skillshelf's tools (what adapters call, through the adapter kit's
   * `runSkillTool`): activation and end as `callSkillTool`, the skill file reader, and a
   * skill script's run, which is a promise (it waits for the host's approval and the
   * process), and a workflow skill's activation when the host runs workflows (a promise
   * of the run's result). Undefined when the name is none of them.
   */
  answerSkillTool(
    call: ToolCall,
  ): SkillToolResult | Promise<ScriptRunResult> | Promise<WorkflowToolResult> | undefined;
  /**
   * The sub-agent a call activating a `context: fork` skill starts (the call is judged first,
   * as `answerSkillTool` would); undefined for any other call or a refused one. Adapters run
   * it through the adapter kit's `runSkillTool(session, call, { fork })`.
   */
  fork(call: ToolCall): Fork | undefined;
  /** Execution-time enforcement: may this host tool call run now? */
  guard(call: ToolCall | string): GuardResult;
  activate(name: string, options?: { by?: ActiveSkill["by"]; args?: string }): ActivationResult;
  /** End an active skill now (the host's code). */
  deactivate(name: string): boolean;
  /** Of the host's tools (default: those the session was opened with), those allowed now. */
  allowedTools(tools?: readonly string[]): string[];
  /** Active skills, in activation order (finished ones included until the next user message). */
  active(): Skill[];
  toJSON(): SessionState;
}

/**
 * A `context: fork` skill's run: a sub-agent with its own context, whose answer is all the
 * conversation gets. Built by core; an adapter starts its framework's agent from it.
 */
export interface Fork {
  skill: string;
  /** The role the skill's `agent` names, when it is one of the shelf's roles. */
  role?: string;
  /** The sub-agent's one user message: the activation's arguments, else the user's latest message. */
  task: string;
  /** Its system prompt: today's date, the role's instructions (with `agent`), then the skill's body. */
  instructions: string;
  /** The host tools it gets: the skill's whitelist (and the role's) within what the conversation allows now. */
  tools: string[];
  /** Tools the skill or role would allow that it does not get, because the conversation rules them out. */
  withheld: string[];
  /** The most steps it may take (the same in every framework). */
  maxSteps: number;
  /** The model id it should run on: the skill's `model`, else the role's. */
  model?: string;
  diagnostics: Diagnostic[];
  /**
   * Judge one of its tool calls: a tool it was not given, a write into a skill folder, a
   * call the conversation's active skills forbid, are refused with core's result.
   */
  guard(call: ToolCall | string): GuardResult;
}

/**
 * A neutral view of a conversation, for opening a session. User messages and every tool
 * call (with its output once it has one) in order; core decides which matter.
 */
export type HistoryItem =
  | { kind: "user"; text: string }
  | { kind: "tool-call"; toolName: string; input: unknown; output?: unknown; id?: string };
