/**
 * A session: one conversation's active skills and every rule that follows from them, for
 * one model call. It is opened with everything it depends on — the checkpointed state or
 * the conversation to rebuild it from, the latest user message and the host's tools — so
 * `plan`, `respond`, `callSkillTool` and `guard` give the same answers in any order.
 *
 * A new user message starts a turn (`beginTurn`): "/done" and "/name" are run, stage 1
 * picks the candidates, and the skill scope decides which active skills end. A message that
 * was already planned (the state says so, or something follows it in the history) is
 * replayed silently: no event, no usage count, the same outcome.
 */

import { workflowProgressRelay } from "../adapter-kit/workflow-progress.js";
import { currentRequestNote } from "../parameters/current-request.js";
import { skillParameters } from "../parameters/skill-parameters.js";
import {
  argumentsFromText,
  recordedArguments,
  recordedArgumentsText,
  validateArguments,
} from "../parameters/validate-arguments.js";
import { matchesSkillPaths, mentionedPaths } from "../parse/path-globs.js";
import type { ToolAliases } from "../policy/aliases.js";
import { createToolPolicy, type ToolPolicy } from "../policy/tool-policy.js";
import { DELEGATE_TOOL, delegationToolNames } from "../roles/role-tools.js";
import { readSkillFilePage } from "../skill-files/reader.js";
import { listScripts, runSkillScript, type ScriptOptions } from "../skill-files/scripts.js";
import type {
  ActivationResult,
  ActiveSkill,
  Candidate,
  Diagnostic,
  EndedSkill,
  EndReason,
  EndResult,
  EventIds,
  EventSink,
  Fork,
  GuardResult,
  HistoryItem,
  MatchResult,
  PinnedPolicy,
  PlanInput,
  ScriptRunResult,
  Session,
  SessionState,
  Skill,
  SkillEvent,
  SkillFileResult,
  SkillScope,
  SkillSource,
  SkillToolResult,
  ToolCall,
  ToolSpec,
  TurnPlan,
  Vetoed,
  WorkflowToolResult,
} from "../types.js";
import { runActivatedWorkflow, type SessionWorkflows, workflowRequestNote } from "../workflow/activation.js";
import {
  activateSkillToolSpec,
  createToolNameIndex,
  endSkillToolSpec,
  readActivationInput,
  readSkillFileToolSpec,
  runSkillScriptToolSpec,
  SKILL_TOOL_PREFIX,
  skillToolSpec,
  type ToolNameIndex,
  unofferedToolSpec,
} from "./activation-tools.js";
import { commandNote } from "./command-note.js";
import { commandRecordBase, isRecordOf, newCommandRecordId } from "./command-record.js";
import { closestSkillNames, parseExplicitInvocation, resolveInvokedSkill } from "./explicit-invocation.js";
import { namesOnlyCatalog, planFallback } from "./fallback-catalog.js";
import { forkRequestNote, forkUnavailable, isForkOutput, prepareFork, whenForkEnds } from "./fork.js";
import { rivalsOfActive } from "./group-rivals.js";
import * as say from "./messages.js";
import type { ProtectedPaths } from "./protected-paths.js";
import { readPath } from "./protected-paths.js";
import { activeSection, instructionsOf, MAX_ARGS_LENGTH, toolList } from "./render.js";
import { skillResources } from "./resources.js";
import { DEFAULT_SCOPE, END_COMMAND, endsOnNewMessage } from "./scope.js";
import { cloneState, pinPolicy, readPinnedPolicy, sanitizeState, turnId } from "./state.js";
import { currentDateLine, splitArguments } from "./substitute.js";
import { missingTools, missingToolsOf } from "./tool-dependencies.js";
import { type ActivationToolNames, calledSkillTools, resolveActivationToolNames } from "./tool-names.js";

/**
 * Stage 1, as the session calls it (the shelf passes its matcher, memoised per message). It
 * is asked again on every plan of a turn, so the answer must depend only on the skills, the
 * message and the usage records, never on which session asks: a session kept for a whole
 * run then offers what a session opened afresh for each model call offers.
 */
export type SessionMatcher = (skills: readonly Skill[], message: string) => MatchResult;

/** The catalog, as the session calls it (the shelf passes its budgeted catalog builder). */
export type SessionCatalog = (input: {
  /** Skills the model may activate now (model-invocable, not roles, not active, not vetoed). */
  skills: readonly Skill[];
  /** This turn's stage-1 candidates among them, best first. */
  candidates: readonly Candidate[];
  /** The shelf's whole skill list these were taken from (stable until a refresh changes it): a cache key. */
  list: readonly Skill[];
  /** Every skill the model may be offered: `skills` is this list without `active` (ordered once, not per subset). */
  offerable?: readonly Skill[];
  /** Names left out of `skills` (active, vetoed): a cache key. */
  active: readonly string[];
}) => {
  text: string;
  /**
   * The skills the text names, when it cannot name them all within its budget:
   * `activate_skill`'s enum is then limited to these, so the tool schema stays as small as
   * the catalog. Skills left out are still offered when a message matches them.
   */
  names?: readonly string[];
  /**
   * Every one of `names` is a name of `skills` (the shelf's catalog lists nothing else): the
   * session then need not check each name is usable before it goes in the enum.
   */
  namesOfSkills?: boolean;
};

/** Where activations are recorded as use (so the catalog order follows real use). */
export interface UsageRecorder {
  record(name: string, at: Date): void;
}

export interface SessionOptions {
  /** Where skills come from: a shelf, or a fixed list in tests. */
  skills: SkillSource;
  /** A checkpointed state to resume. Without it, the state is rebuilt from `history`. */
  state?: SessionState;
  /** The conversation so far, the latest user message included. */
  history?: readonly HistoryItem[];
  /** The latest user message, for hosts that pass no history. */
  message?: string;
  /** The host's own tool names. Skill tools never take one, and a call to one is never read as ours. */
  tools?: readonly string[];
  /** Files the host reports as touched in this conversation: with the paths a message mentions, they decide which `paths` skills may be candidates. */
  files?: readonly string[];
  match?: SessionMatcher;
  catalog?: SessionCatalog;
  usage?: UsageRecorder;
  events?: EventSink | false;
  /** Map whitelist names (Claude Code's `Read`, `Bash(git:*)`) to the host's tool names or globs. */
  toolAliases?: ToolAliases;
  /** How many top candidates get their own `skill_<name>` tool (default 3). */
  topCandidates?: number;
  /** How long an activated skill lasts (default "task"). */
  scope?: SkillScope;
  /** Folders no guarded tool may write into (skill roots, the state folder); `false` turns it off. */
  protect?: ProtectedPaths | false;
  /** Tools that only read files: they may read skill files, and a read counts as use. */
  isReadTool?: (tool: string) => boolean;
  /** A read tool read this path (the shelf counts a SKILL.md read as use). */
  noteRead?: (path: string) => void;
  /** Running skills' `scripts/` entries (`run_skill_script`): off unless `run` is true. */
  scripts?: ScriptOptions;
  /** Workflow skills (`steps:`): run by core when the model activates one (off when unset). */
  workflows?: SessionWorkflows;
  /**
   * A skill left out of `skills` on purpose (a project skill the user has not trusted, one on
   * the disable list): the refusal an activation of it gets instead of NOT_FOUND.
   */
  withheld?: (
    name: string,
    by: ActiveSkill["by"],
  ) => { error_type: "UNTRUSTED" | "DISABLED"; message: string } | undefined;
  /** Offer skills whose `allowed-tools` admit none of the host's tools (default false: they are not offered). */
  offerWithoutTools?: boolean;
  /** The clock (tests pin it). */
  now?: () => Date;
  /** Time zone for the date given to active skills (default: the runtime's). */
  timeZone?: string;
  /** Stamped on every event this session emits: the host's thread and run, and a session id (default a random one). */
  ids?: EventIds;
}

const EMPTY_MATCH: MatchResult = { candidates: [], vetoed: [], ambiguous: false };
const NO_TOOLS: PinnedPolicy = Object.freeze({ allowedTools: [], disallowedTools: [] }) as PinnedPolicy;
const NO_ALIASES: ToolAliases = Object.freeze({});
/** The names the delegation tool may take: never a workflow step's to run. */
const DELEGATION_TOOLS: ReadonlySet<string> = new Set(delegationToolNames(DELEGATE_TOOL));

/** Everything derived from one version of the skill list, shared by every session over it. */
interface SkillsView {
  list: readonly Skill[];
  tools: ToolNameIndex;
  names: ActivationToolNames;
  /** Skills the model may be offered: not `disable-model-invocation`, not roles. */
  offerable: Skill[];
  offerableNames: Set<string>;
  /** The offerable skills by name, made on first use (see `withinPaths`). */
  offerableByName?: Map<string, Skill>;
  /** Where each offerable skill is in `offerable`, made on first use (see `availableFor`). */
  offerableIndex?: Map<string, number>;
  invocable?: Skill[];
  closest: Map<string, string[]>;
}

const views = new WeakMap<readonly Skill[], SkillsView>();

/** The skills of a list the model may be offered (the array stage 1 is run over, shared). */
export function offerableSkills(list: readonly Skill[]): readonly Skill[] {
  return sharedView(list).offerable;
}

function sharedView(list: readonly Skill[]): SkillsView {
  let view = views.get(list);
  if (!view) {
    const offerable = list.filter((s) => !s.disableModelInvocation && !s.role);
    const tools = createToolNameIndex(list);
    view = {
      list,
      tools,
      names: resolveActivationToolNames(tools),
      offerable,
      offerableNames: new Set(offerable.map((s) => s.name)),
      closest: new Map(),
    };
    views.set(list, view);
  }
  return view;
}

/**
 * The skills the model may activate, shared per skill list and the names left out (active,
 * vetoed): catalogs are cached by the identity of this array, and filtering 10,000 skills
 * on every plan was most of a step's cost.
 */
const availableCache = new WeakMap<readonly Skill[], Map<string, Skill[]>>();

function availableFor(v: SkillsView, left: readonly string[]): Skill[] {
  if (left.length === 0) return v.offerable;
  let byLeft = availableCache.get(v.list);
  if (!byLeft) {
    byLeft = new Map();
    availableCache.set(v.list, byLeft);
  }
  const key = left.join("\u0000");
  let list = byLeft.get(key);
  if (!list) {
    list = withoutNames(v, left);
    if (byLeft.size >= 64) byLeft.clear();
    byLeft.set(key, list);
  }
  return list;
}

/**
 * The offerable skills less the few named: copied in runs between them, not asked about one by
 * one (every turn with an active skill its own set, at 10,000 skills).
 */
function withoutNames(v: SkillsView, names: readonly string[]): Skill[] {
  if (!v.offerableIndex) {
    v.offerableIndex = new Map();
    for (let i = 0; i < v.offerable.length; i++) v.offerableIndex.set((v.offerable[i] as Skill).name, i);
  }
  const index = v.offerableIndex;
  const cuts = [...new Set(names.flatMap((name) => index.get(name) ?? []))].sort((a, b) => a - b);
  const list: Skill[] = [];
  let from = 0;
  for (const cut of cuts) {
    for (let i = from; i < cut; i++) list.push(v.offerable[i] as Skill);
    from = cut + 1;
  }
  for (let i = from; i < v.offerable.length; i++) list.push(v.offerable[i] as Skill);
  return list;
}

/**
 * `activate_skill`'s spec, shared per pool (catalog names or available skills), top
 * candidates and names left out. Weak: a pool goes with the plan or shelf version it belongs
 * to (a bounded strong map kept up to 64 old pools' specs alive, each with an enum of every
 * name: hundreds of MB at 10,000 skills without a catalog).
 */
const activateSpecs = new WeakMap<object, Map<string, ToolSpec | undefined>>();

/**
 * `usable` is undefined when every name of the pool is known usable (the available skills
 * are the offerable ones less those left out): a new request's pool is asked about once, so
 * two set lookups per name were most of this spec's cost.
 */
function activateSpecFor(
  tool: string,
  pool: readonly string[] | readonly Skill[],
  top: readonly Skill[],
  left: readonly string[],
  usable: ((name: string) => boolean) | undefined,
): ToolSpec | undefined {
  let byKey = activateSpecs.get(pool);
  if (!byKey) {
    byKey = new Map();
    activateSpecs.set(pool, byKey);
  }
  let key = tool;
  key += "\u0001";
  for (let i = 0; i < top.length; i++)
    key += i === 0 ? (top[i] as Skill).name : `\u0000${(top[i] as Skill).name}`;
  key += "\u0001";
  key += left.join("\u0000");
  if (byKey.has(key)) return byKey.get(key);
  // The top skills are a handful: compared one by one, not put in a set.
  const names: string[] = [];
  for (const p of pool as ReadonlyArray<string | Skill>) {
    const name = typeof p === "string" ? p : p.name;
    let skip = false;
    for (let i = 0; i < top.length && !skip; i++) skip = (top[i] as Skill).name === name;
    if (!skip && (usable === undefined || usable(name))) names.push(name);
  }
  const spec = activateSkillToolSpec(names, tool);
  if (byKey.size >= 64) byKey.clear();
  byKey.set(key, spec);
  return spec;
}

/** `skill_<name>` specs per skill object and tool name (a skill object never changes). */
const skillSpecs = new WeakMap<Skill, Map<string, ToolSpec>>();

function skillSpec(skill: Skill, tool: string): ToolSpec {
  let byName = skillSpecs.get(skill);
  if (!byName) {
    byName = new Map();
    skillSpecs.set(skill, byName);
  }
  let spec = byName.get(tool);
  if (!spec) {
    spec = skillToolSpec(skill, tool);
    byName.set(tool, spec);
  }
  return spec;
}

/**
 * The skill a pinned policy is enforced as: the loaded skill itself while its file still says
 * the same (so compiled whitelists are shared), else a stand-in carrying the pinned lists.
 */
const standIns = new Map<string, Skill>();

function enforcedAs(
  name: string,
  skill: Skill | undefined,
  pinned: PinnedPolicy | undefined,
): Skill | undefined {
  if (!pinned) return skill;
  if (skill && samePolicy(pinPolicy(skill), pinned)) return skill;
  const key = `${name}\u0000${skill?.file ?? ""}\u0000${JSON.stringify(pinned)}`;
  let standIn = standIns.get(key);
  if (!standIn) {
    standIn = {
      name,
      file: skill?.file ?? "",
      allowedTools: pinned.allowedTools ? [...pinned.allowedTools] : undefined,
      disallowedTools: [...pinned.disallowedTools],
    } as Skill;
    if (standIns.size >= 256) standIns.clear();
    standIns.set(key, standIn);
  }
  return standIn;
}

function samePolicy(a: PinnedPolicy, b: PinnedPolicy): boolean {
  const same = (x: readonly string[] | undefined, y: readonly string[] | undefined) =>
    x === y || (x !== undefined && y !== undefined && x.length === y.length && x.every((v, i) => v === y[i]));
  return same(a.allowedTools, b.allowedTools) && same(a.disallowedTools, b.disallowedTools);
}

/** Did this recorded tool call fail? (Its output, as a result object or its JSON text.) */
function outputOf(output: unknown): { failed: boolean; value: unknown } {
  let value = output;
  if (typeof value === "string") {
    const text = value.trim();
    if (text.startsWith("{")) {
      try {
        value = JSON.parse(text);
      } catch {
        // not JSON: a plain text result
      }
    }
  }
  const failed = Boolean(
    value && typeof value === "object" && (value as { status?: unknown }).status === "error",
  );
  return { failed, value };
}

function wellFormed(item: unknown): item is HistoryItem {
  if (!item || typeof item !== "object") return false;
  const record = item as Record<string, unknown>;
  if (record.kind === "user") return typeof record.text === "string";
  if (record.kind === "tool-call") return typeof record.toolName === "string";
  return false;
}

const fold = (name: string) => name.normalize("NFKC").toLowerCase();

/**
 * A time as events stamp it, the last one kept: the events of a step share a clock reading
 * more often than not, and `toISOString` was a visible part of a new request's cost.
 */
let lastTime = Number.NaN;
let lastIso = "";
function isoAt(at: Date): string {
  const time = at.getTime();
  if (time !== lastTime) {
    lastIso = at.toISOString(); // an invalid date throws here, every time, as before
    lastTime = time;
  }
  return lastIso;
}

export function createSession(options: SessionOptions): Session {
  const source = options.skills;
  const clock = options.now ?? (() => new Date());
  const sink = options.events || undefined;
  const topCount = options.topCandidates ?? 3;
  const scope = options.scope ?? DEFAULT_SCOPE;
  const aliases = options.toolAliases ?? NO_ALIASES;
  const state = sanitizeState(options.state, clock());

  const ids: EventIds = { session: globalThis.crypto.randomUUID(), ...options.ids };
  let silent = 0;
  const emit = (event: SkillEvent) => {
    if (silent > 0 || !sink) return;
    try {
      sink.emit({ ...event, ...ids });
    } catch {
      // An event sink must never break the host's turn.
    }
  };
  const quietly = <T>(fn: () => T): T => {
    silent++;
    try {
      return fn();
    } finally {
      silent--;
    }
  };

  // ── the host's tools: known up front, so every answer names the host's real tools ──
  let hostTools: readonly string[] = [...new Set(options.tools ?? [])];
  let hostSet = new Set(hostTools);
  // Names this session offered itself are never learned as host tools: some hosts hand a
  // step's whole tool set, ours included, back as "the tools" of the next step.
  const offered = new Set<string>();
  const learnTools = (tools: readonly string[] | undefined) => {
    const fresh = tools?.filter((t) => !hostSet.has(t) && !offered.has(t));
    if (!fresh || fresh.length === 0) return;
    hostTools = [...new Set([...hostTools, ...fresh])];
    hostSet = new Set(hostTools);
    namesCache = undefined;
  };

  let view: SkillsView | undefined;
  const skillsView = (): SkillsView => {
    const current = source.skills();
    if (view?.list !== current) {
      view = sharedView(current);
      namesCache = undefined;
    }
    return view;
  };
  let namesCache: ActivationToolNames | undefined;
  const toolNames = (): ActivationToolNames => {
    const v = skillsView();
    if (!namesCache) {
      const clashes = hostTools.some(
        (t) =>
          t.startsWith("skill_") ||
          t.includes("activate_skill") ||
          t.includes("end_skill") ||
          t.includes("read_skill_file") ||
          t.includes("run_skill_script"),
      );
      namesCache = clashes
        ? resolveActivationToolNames(
            v.tools,
            hostSet,
            (name) => v.offerableNames.has(name),
            (name) => source.get(name)?.file,
          )
        : v.names;
    }
    return namesCache;
  };

  // ── the current turn ──
  let match: MatchResult = EMPTY_MATCH;
  let matchProblem: Diagnostic | undefined;
  let turnMessage: string | undefined;
  /**
   * `match` is stage 1's answer for `turnMessage` (not a command's empty one), and whether a
   * plan has used it since it was asked: a later plan asks again, since an activation of this
   * turn may have changed the usage records a tie was broken by.
   */
  let stage1: { used: boolean } | undefined;
  /** The note a refused "/name" (or a "/done" with nothing to end) leaves for its turn. */
  let turnNote: string | undefined;
  let explicit: ActivationResult | undefined;
  /**
   * Results of skill-tool calls made in a response, by call id and tool: a model may give two
   * different tools' calls one id, and each must get its own answer.
   */
  const answered = new Map<string, ActivationResult | EndResult>();
  /** Reads and script runs by call id: a call asked again is never read or run twice. */
  const fileAnswers = new Map<string, SkillFileResult | Promise<ScriptRunResult>>();
  /** Sub-agents of `context: fork` activations, by call id (and the latest, for a call without one). */
  const forks = new Map<string, Fork>();
  let lastFork: Fork | undefined;
  /** A forked skill the user (or the host's code) asked for in this turn: the model is asked to start it. */
  let forkRequest: { name: string; command: string; args?: string } | undefined;
  /**
   * User-only forked skills the model has started for the user's "/name" in this turn (also
   * as the history records): the user asked for one run, so the model gets one.
   */
  const forksForUser = new Set<string>();
  /** "/name args" on a workflow skill this turn: the model is asked to start its run. */
  let workflowRequest: { name: string; command: string; input: Record<string, unknown> } | undefined;
  /**
   * The user's "/name" of this turn that started an inline skill with limits, in a session
   * rebuilt from the history: its record (command-record.ts) is due until the history shows it.
   */
  /** `base`: the id's part a replay can work out; `id`: the record's own (random part: this session's, or the history's). */
  let userCommand: { base: string; id: string; name: string; args?: string; recorded: boolean } | undefined;
  const recordsCommands = options.history !== undefined && options.state === undefined;

  /**
   * skillshelf's tools the latest plan offered, by name: once this session has planned a model
   * call, the model activates a skill only through one of them (undefined: never planned, as
   * a host calling the session's tools itself).
   */
  let offeredNow: Map<string, ToolSpec> | undefined;

  const isActive = (name: string) => state.active.some((a) => a.name === name);
  const running = () => state.active.filter((a) => !a.finished);
  const vetoOf = (name: string): Vetoed | undefined => match.vetoed.find((v) => v.name === name);

  /**
   * A skill that lists `paths` is for those files: it stays a candidate only when a file the
   * message mentions, or the host reports, matches one of its globs. The matcher's result is
   * shared by every session of the shelf, so a filtered copy is taken, never an edit.
   */
  /**
   * A skill as the list stage 1 ran over holds it, for routing alone (which skills are
   * offered, and how). `source.get` checks a prebuilt skill against its file — a parse per
   * skill, so asking for every candidate made a cold start's first plan parse them all. What
   * a skill can do (its tools, body, scripts, whether the model may activate it) is always
   * taken from `source.get` when it is activated or used.
   */
  const routed = (name: string): Skill | undefined => {
    const v = skillsView();
    v.offerableByName ??= new Map(v.offerable.map((s) => [s.name, s]));
    return v.offerableByName.get(name);
  };

  const withinPaths = (result: MatchResult, message: string): MatchResult => {
    // Only a skill that lists `paths` is asked for by name, and its file's globs decide; one its
    // file no longer provides is no candidate.
    const gated = result.candidates.filter((c) => routed(c.name)?.paths?.length);
    if (gated.length === 0) return result;
    const files = [...mentionedPaths(message), ...(options.files ?? [])];
    const out = gated.filter((c) => {
      const skill = source.get(c.name);
      return skill === undefined || !matchesSkillPaths(skill, files);
    });
    if (out.length === 0) return result;
    const candidates = result.candidates.filter((c) => !out.includes(c));
    // The tie was between the top two: it holds only while both are still there.
    const topTwo = result.candidates.slice(0, 2);
    const ambiguous = result.ambiguous && topTwo.every((c) => candidates.includes(c));
    return { ...result, candidates, ambiguous };
  };

  const runMatch = (message: string): void => {
    const v = skillsView();
    matchProblem = undefined;
    stage1 = { used: false };
    try {
      match = options.match && v.offerable.length > 0 ? options.match(v.offerable, message) : EMPTY_MATCH;
      match = withinPaths(match, message);
    } catch (error) {
      match = EMPTY_MATCH;
      matchProblem = planFallback("matching", error);
    }
  };

  const recordUse = (name: string, at: Date): void => {
    options.usage?.record(name, at);
  };

  const end = (name: string, why: EndReason): boolean => {
    const index = state.active.findIndex((a) => a.name === name);
    if (index < 0) return false;
    state.active.splice(index, 1);
    emit({ type: "deactivated", at: isoAt(clock()), skill: name, why });
    return true;
  };

  /** Ended, its limits held until the user's next message (end_skill's way). */
  const finish = (name: string, why: EndReason): void => {
    const entry = state.active.find((a) => a.name === name);
    if (!entry || entry.finished) return;
    entry.finished = true;
    emit({ type: "deactivated", at: isoAt(clock()), skill: name, why });
  };

  const closestNames = (typed: string): string[] => {
    const v = skillsView();
    let names = v.closest.get(typed);
    if (!names) {
      v.invocable ??= v.list.filter((s) => s.userInvocable);
      names = closestSkillNames(typed, v.invocable);
      if (v.closest.size >= 256) v.closest.clear();
      v.closest.set(typed, names);
    }
    return names;
  };

  /** Whether `by` may activate this skill at all, whatever the state. */
  const refusalOf = (
    skill: Skill | undefined,
    requested: string,
    by: ActiveSkill["by"],
    args: string | undefined,
  ): ReturnType<typeof say.excluded> | undefined => {
    const command = `/${requested}${args ? ` ${args}` : ""}`;
    if (!skill) {
      const withheld = options.withheld?.(requested, by);
      if (withheld) return withheld;
      if (by === "user") {
        const close = closestNames(requested);
        const userSkills = skillsView().list.filter((s) => s.userInvocable);
        const offer =
          close.length > 0
            ? `the closest skills are ${close.map((n) => `/${n}`).join(", ")} (they can type one of them)`
            : `the skills they can run are ${toolList(userSkills.map((s) => `/${s.name}`))}`;
        return say.notFoundForUser(command, requested, offer);
      }
      return say.notFoundForModel(requested, [...skillsView().offerableNames]);
    }
    if (args !== undefined && args.length > MAX_ARGS_LENGTH) return say.argumentsTooLong(MAX_ARGS_LENGTH);
    if (by === "model" && skill.role) return say.roleForModel(skill.name);
    if (
      by === "model" &&
      skill.disableModelInvocation &&
      forkRequest?.name !== skill.name &&
      workflowRequest?.name !== skill.name
    )
      return say.userOnly(skill);
    if (by === "model") {
      const veto = vetoOf(skill.name);
      if (veto) return say.excluded(skill.name, veto);
    }
    if (by === "user" && !skill.userInvocable) {
      return skill.role
        ? say.roleForUser(command, skill.name, args)
        : say.notUserInvocable(command, skill.name);
    }
    return undefined;
  };

  const refuse = (
    skill: string,
    by: ActiveSkill["by"],
    why: ReturnType<typeof say.excluded>,
  ): ActivationResult => {
    emit({ type: "activation-refused", at: isoAt(clock()), skill, by, error_type: why.error_type });
    return { status: "error", error_type: why.error_type, message: why.message };
  };

  // ── policy: the active skills' pinned whitelists ──
  let policyCache: { key: string; list: readonly Skill[]; policy: ToolPolicy } | undefined;
  const policy = (): ToolPolicy => {
    const list = skillsView().list;
    const key = state.active.map((a) => `${a.name}\u0000${JSON.stringify(a.policy ?? null)}`).join("\u0001");
    if (!policyCache || policyCache.key !== key || policyCache.list !== list) {
      const enforced: Skill[] = [];
      for (const entry of state.active) {
        const file = source.get(entry.name);
        // Neither a pin nor a file (an old or edited checkpoint, the file gone since): no tools.
        const skill =
          enforcedAs(entry.name, file, entry.policy) ?? enforcedAs(entry.name, undefined, NO_TOOLS);
        if (skill) enforced.push(skill);
        // A pin is held together with the file as it is now: never more than either allows.
        // One read from a checkpoint or a history may have been edited by a client; and an edit
        // that narrows the file applies at the next call however long the framework keeps its
        // session (one per run in Mastra, one per call elsewhere), so all frameworks agree.
        if (file && skill !== file) enforced.push(file);
      }
      policyCache = { key, list, policy: createToolPolicy(enforced, { toolAliases: aliases }) };
    }
    return policyCache.policy;
  };
  const allowedNow = (): string[] | null => {
    const p = policy();
    if (!p.restricted) return null;
    if (hostTools.length > 0) return p.allowedTools(hostTools);
    // The host did not say which tools it has: report the whitelists as written.
    const declared = state.active.find((a) => a.policy?.allowedTools)?.policy?.allowedTools;
    return declared ? [...declared] : [];
  };

  const success = (skill: Skill, entry: ActiveSkill, message: string): ActivationResult => {
    if (silent > 0) {
      // A replay only needs the state: the model read this result long ago.
      return {
        status: "success",
        data: { name: skill.name, instructions: "", allowedTools: null, resources: [] },
        message,
      };
    }
    const allowed = allowedNow();
    let text = message;
    if (allowed) {
      const p = policy();
      text +=
        allowed.length > 0
          ? ` While it is active you may use only these tools: ${toolList(allowed.map((t) => p.describe(t)))}.`
          : " While it is active you may use no tools besides the skill tools.";
    }
    const resources = skillResources(skill);
    if (resources.length > 0) {
      const names = toolNames();
      const how = names.read ? ` with ${names.read} ({"path": "<one of resources>"})` : "";
      text += ` It comes with ${resources.length} file(s) under ${skill.dir} (see resources); read one${how} only when the instructions call for it.`;
      const scripts = options.scripts?.run === true && names.script ? listScripts(resources) : [];
      if (scripts.length > 0) text += ` Its scripts run with ${names.script} (the user approves each run).`;
    }
    const data: Extract<ActivationResult, { status: "success" }>["data"] = {
      name: skill.name,
      instructions: `${currentDateLine(clock(), options.timeZone)}\n\n${instructionsOf(skill, entry)}`,
      allowedTools: allowed,
      resources,
    };
    if (entry.policy) data.policy = entry.policy;
    const typed = recordedArguments(skill, entry.args);
    if (typed) data.arguments = typed;
    return { status: "success", data, message: text };
  };

  /** How the latest plan lets the model activate this skill, said as a call (undefined: it does not). */
  const offeredWay = (name: string): string | undefined => {
    const names = toolNames();
    const own = names.toolName(name);
    if (own !== undefined && offeredNow?.has(own)) return own;
    const generic = names.generic !== undefined ? offeredNow?.get(names.generic) : undefined;
    const properties = generic?.inputSchema.properties as { name?: { enum?: unknown } } | undefined;
    const listed = properties?.name?.enum;
    return Array.isArray(listed) && listed.includes(name)
      ? `${generic!.name} with {"name": "${name}"}`
      : undefined;
  };

  const activateInternal = (
    requested: string,
    by: ActiveSkill["by"],
    args: string | undefined,
    extra: { call?: string; pinned?: PinnedPolicy; values?: Record<string, unknown>; tool?: string } = {},
  ): ActivationResult => {
    const skill =
      source.get(requested) ?? (by === "user" ? resolveInvokedSkill(source, requested) : undefined);
    const refusal = refusalOf(skill, requested, by, args);
    if (refusal || !skill) return refuse(skill?.name ?? requested, by, refusal!);
    if (by === "model" && skill.disableModelInvocation && skill.context === "fork") {
      // Only the user's "/name" lets the model start a user-only fork (refusalOf checked it):
      // once, and with the user's arguments, never ones the model chose.
      if (forksForUser.has(skill.name)) return refuse(skill.name, by, say.userForkDone(skill));
      args = forkRequest?.args;
      extra = { ...extra, values: undefined };
    } else if (by === "model" && skill.disableModelInvocation && workflowRequest?.name === skill.name) {
      // The same for a user-only workflow's run: on the input the user's "/name" gave.
      const input = workflowRequest.input;
      if (skillParameters(skill).parameters) {
        args = undefined;
        extra = { ...extra, values: input };
      } else {
        args = typeof input.args === "string" && input.args !== "" ? input.args : undefined;
        extra = { ...extra, values: undefined };
      }
    }
    // Fail closed: a tool the step did not offer activates nothing new (a skill already in
    // the state is answered below as before: already active, or active again after its end).
    if (extra.tool !== undefined && offeredNow && !offeredNow.has(extra.tool) && !isActive(skill.name))
      return refuse(skill.name, by, say.notOffered(extra.tool, skill.name, offeredWay(skill.name)));
    const typed = skillParameters(skill);
    if (typed.parameters || typed.broken) {
      // Typed arguments are checked before anything of the skill is loaded: the model gets
      // what to send instead, and the skill stays inactive.
      const check = validateArguments(skill, extra.values ?? argumentsFromText(args ?? "", splitArguments));
      if (!check.ok) {
        refuse(skill.name, by, check.result);
        return check.result;
      }
      args = JSON.stringify(check.values);
    }
    if (skill.context === "fork") {
      if (by === "model") {
        if (skill.disableModelInvocation && silent === 0) forksForUser.add(skill.name);
        return startFork(skill, args ?? forkRequest?.args, extra.call);
      }
      return requestFork(skill, requested, args);
    }
    if (by === "user" && options.workflows && skill.steps?.length) {
      // The run is the model's tool call (its answer is the run): nothing is active yet.
      workflowRequest = {
        name: skill.name,
        command: `/${requested}${args ? ` ${args}` : ""}`,
        input:
          typed.parameters && args !== undefined
            ? (JSON.parse(args) as Record<string, unknown>)
            : { args: args ?? "" },
      };
      return {
        status: "success",
        data: { name: skill.name, instructions: "", allowedTools: null, resources: [] },
        message: `Skill "${skill.name}" is a workflow: the model is asked to run it.`,
      };
    }
    const name = skill.name;
    const now = clock();
    const existing = state.active.find((a) => a.name === name);
    if (existing) {
      if (extra.call !== undefined && existing.call === extra.call) {
        return success(skill, existing, `Skill "${name}" is now active.`);
      }
      if (existing.finished && by !== "code") {
        // Activated again after the model ended it: it runs again, under the same pinned limits.
        delete existing.finished;
        existing.at = now.toISOString();
        // A typed skill runs again on the arguments of this call, not the last one's.
        if (typed.parameters && args !== undefined) existing.args = args;
        emit({ type: "activated", at: existing.at, skill: name, by });
        return success(skill, existing, `Skill "${name}" is active again. Follow its instructions.`);
      }
      const newArgs = args !== undefined && args !== "" && args !== (existing.args ?? "");
      if (newArgs) {
        existing.args = args;
        existing.at = now.toISOString();
        emit({ type: "activated", at: existing.at, skill: name, by, args });
        recordUse(name, now);
        return success(
          skill,
          existing,
          `Skill "${name}" was already active; its arguments are now "${args}".`,
        );
      }
      return refuse(name, by, say.alreadyActive(name));
    }
    if (skill.group !== undefined) {
      const rival = state.active.find((a) => a.name !== name && source.get(a.name)?.group === skill.group);
      if (rival) {
        if (by === "model") return refuse(name, by, say.groupConflict(name, rival.name, skill.group));
        end(rival.name, "code"); // the user (or the host's code) chose: switch
      }
    }
    const entry: ActiveSkill = { name, by, at: now.toISOString(), policy: extra.pinned ?? pinPolicy(skill) };
    if (args !== undefined && args !== "") entry.args = args;
    if (extra.call !== undefined) entry.call = extra.call;
    state.active.push(entry);
    const event: SkillEvent = { type: "activated", at: entry.at, skill: name, by };
    if (entry.args !== undefined) event.args = entry.args;
    emit(event);
    if (silent === 0) {
      try {
        recordUse(name, now);
      } catch {
        // Usage is a ranking hint; losing one record must not fail the activation.
      }
    }
    return success(
      skill,
      entry,
      `Skill "${name}" is now active. Follow its instructions (in this result, and in the system prompt from your next step on) to do the task.`,
    );
  };

  /**
   * A `context: fork` skill the model activates: nothing joins the conversation's state or
   * context; core prepares the sub-agent (bounded by the conversation as it is now) and the
   * adapter runs it. The result kept here is what a host that starts no sub-agent returns.
   */
  const startFork = (skill: Skill, args: string | undefined, call: string | undefined): ActivationResult => {
    lastFork = undefined;
    if (silent > 0) return forkUnavailable(skill.name);
    const now = clock();
    const agent = skill.agent !== undefined ? source.get(skill.agent) : undefined;
    // A user-only role is never the model's to start, also not as a forked skill's agent
    // (unless the user's "/name" asked for this skill).
    if (agent?.role && agent.disableModelInvocation && forkRequest?.name !== skill.name)
      return refuse(skill.name, "model", say.userOnlyAgent(skill.name, agent.name));
    const fork = prepareFork({
      skill,
      ...(args !== undefined && args !== "" ? { args } : {}),
      ...(turnMessage !== undefined ? { request: turnMessage } : {}),
      ...(agent ? { agent } : {}),
      hostTools,
      parent: policy(),
      guard: (c) => guard(c),
      toolAliases: aliases,
      now,
      ...(options.timeZone !== undefined ? { timeZone: options.timeZone } : {}),
    });
    if (call !== undefined) forks.set(call, fork);
    lastFork = fork;
    const event: SkillEvent = { type: "activated", at: now.toISOString(), skill: skill.name, by: "model" };
    if (args !== undefined && args !== "") event.args = args;
    emit(event);
    whenForkEnds(fork, () =>
      emit({ type: "deactivated", at: isoAt(clock()), skill: skill.name, why: "sub-agent-done" }),
    );
    try {
      recordUse(skill.name, now);
    } catch {
      // Usage is a ranking hint; losing one record must not fail the activation.
    }
    return forkUnavailable(skill.name);
  };

  /** "/name" on a forked skill: nothing becomes active; the model is asked to start its sub-agent. */
  const requestFork = (skill: Skill, requested: string, args: string | undefined): ActivationResult => {
    forkRequest = { name: skill.name, command: `/${requested}${args ? ` ${args}` : ""}` };
    if (args !== undefined && args !== "") forkRequest.args = args;
    return {
      status: "success",
      data: { name: skill.name, instructions: "", allowedTools: null, resources: [] },
      message: `Skill "${skill.name}" runs in a sub-agent: the model is asked to start it.`,
    };
  };

  const endByModel = (input: unknown): EndResult => {
    const names = running().map((a) => a.name);
    let target: string | undefined;
    if (input && typeof input === "object" && typeof (input as { name?: unknown }).name === "string") {
      target = (input as { name: string }).name;
    }
    if (names.length === 0) {
      return {
        status: "error",
        error_type: "NOT_ACTIVE",
        message: "No skill is active; there is nothing to end.",
      };
    }
    if (target !== undefined && !names.includes(target)) {
      return {
        status: "error",
        error_type: "NOT_ACTIVE",
        message: `Skill "${target}" is not active. Active skills: ${names.join(", ")}.`,
      };
    }
    const ended = target ? [target] : names;
    for (const name of ended) {
      const entry = state.active.find((a) => a.name === name)!;
      entry.finished = true;
      emit({ type: "deactivated", at: isoAt(clock()), skill: name, why: "model" });
    }
    return {
      status: "success",
      data: { ended },
      message: `Ended ${ended.map((n) => `"${n}"`).join(", ")}. Its tool limits hold until the user's next message; answer the user now.`,
    };
  };

  /** A new user message: the end command, a "/name" command, stage 1 and the scope rule. */
  const beginTurn = (message: string, id: string): void => {
    turnMessage = message;
    stage1 = undefined;
    turnNote = undefined;
    explicit = undefined;
    forkRequest = undefined;
    forksForUser.clear();
    workflowRequest = undefined;
    userCommand = undefined;
    answered.clear();
    fileAnswers.clear();
    forks.clear();
    // A skill the model ended was reported then (why "model"); its held limits go now.
    for (const entry of [...state.active]) if (entry.finished) end(entry.name, "released");
    const ended: EndedSkill[] = [];
    const endAll = (why: EndReason) => {
      for (const entry of running()) if (end(entry.name, why)) ended.push({ name: entry.name, why });
    };
    const invocation = parseExplicitInvocation(message);
    const skill = invocation ? resolveInvokedSkill(source, invocation.name) : undefined;
    let commandRan = false;
    if (invocation && !skill && fold(invocation.name) === END_COMMAND) {
      if (running().length === 0) turnNote = say.nothingToEndNote();
      endAll("user");
      match = EMPTY_MATCH;
      commandRan = true;
    } else if (
      invocation &&
      (skill || options.withheld?.(invocation.name, "user") || closestNames(invocation.name).length > 0)
    ) {
      // "/name" is a command when it names a skill, or nearly does (a typo is refused with the
      // closest names); any other "/word" is an ordinary message ("/weather in Paris").
      const refusal = refusalOf(skill, invocation.name, "user", invocation.args);
      if (!refusal && skill && scope !== "session") {
        for (const entry of running()) {
          if (entry.name !== skill.name && end(entry.name, "new-turn"))
            ended.push({ name: entry.name, why: "new-turn" });
        }
      }
      explicit = activateInternal(skill?.name ?? invocation.name, "user", invocation.args);
      if (explicit.status === "error" && explicit.error_type !== "ALREADY_ACTIVE") {
        turnNote = commandNote(message, explicit);
      }
      if (recordsCommands && explicit.status === "success") noteUserCommand(id, explicit.data.name);
      commandRan = explicit.status === "success" || explicit.error_type === "ALREADY_ACTIVE";
      if (commandRan) match = EMPTY_MATCH;
      else runMatch(message);
    } else {
      runMatch(message);
      for (const entry of running()) {
        if (endsOnNewMessage(scope, entry.name, message, match)) {
          const why: EndReason = scope === "turn" ? "new-turn" : "new-request";
          if (end(entry.name, why)) ended.push({ name: entry.name, why });
        }
      }
    }
    state.turn = ended.length > 0 ? { id, ended } : { id };
    // Built only when someone listens: most steps of a busy host run with events off.
    if (!commandRan && !matchProblem && sink && silent === 0) {
      emit({
        type: "candidates",
        at: isoAt(clock()),
        message,
        candidates: match.candidates,
        vetoed: match.vetoed,
        ambiguous: match.ambiguous,
      });
    }
  };

  /** The latest message of a turn already planned (by this state, or earlier in the history). */
  const resumeTurn = (message: string): void => {
    turnMessage = message;
    stage1 = undefined;
    // The command ran when its turn began: a replay reports it no more than a checkpoint does.
    explicit = undefined;
    forkRequest = undefined;
    workflowRequest = undefined;
    const invocation = parseExplicitInvocation(message);
    const skill = invocation ? resolveInvokedSkill(source, invocation.name) : undefined;
    match = EMPTY_MATCH;
    if (invocation && !skill && fold(invocation.name) === END_COMMAND) {
      if (!state.turn?.ended?.some((e) => e.why === "user") && running().length === 0)
        turnNote = say.nothingToEndNote();
      return;
    }
    if (
      invocation &&
      (skill || options.withheld?.(invocation.name, "user") || closestNames(invocation.name).length > 0)
    ) {
      const refusal = refusalOf(skill, invocation.name, "user", invocation.args);
      if (refusal) turnNote = commandNote(message, refusal);
      if (!refusal && skill && isActive(skill.name)) return;
      if (!refusal && skill?.context === "fork") {
        requestFork(skill, invocation.name, invocation.args);
        return;
      }
    }
    runMatch(message);
  };

  /**
   * A recorded successful activation is a fact of the conversation: it is restored as it
   * happened, never judged again against the skill file as it is now — a file the model may
   * have rewritten (user-only, a role, excluding the request) or deleted since. Its limits are
   * those it recorded; without a record, the file's; with neither, no tools at all.
   */
  const restoreActivation = (
    requested: string,
    args: string | undefined,
    call: string | undefined,
    pinned: PinnedPolicy | undefined,
  ) => {
    const skill = source.get(requested);
    const name = skill?.name ?? requested;
    const existing = state.active.find((a) => a.name === name);
    if (existing) {
      delete existing.finished;
      if (args !== undefined && args !== "") existing.args = args;
      return;
    }
    const entry: ActiveSkill = {
      name,
      by: "model",
      at: isoAt(clock()),
      policy: pinned ?? (skill ? pinPolicy(skill) : { allowedTools: [], disallowedTools: [] }),
    };
    if (args !== undefined && args !== "") entry.args = args;
    if (call !== undefined) entry.call = call;
    state.active.push(entry);
  };

  /** The user's command just started an inline skill: one with limits gets its record. */
  const noteUserCommand = (turn: string, name: string) => {
    const entry = state.active.find((a) => a.name === name && a.by === "user");
    const limits = entry?.policy;
    if (!entry || !limits || (limits.allowedTools === undefined && limits.disallowedTools.length === 0))
      return;
    const base = commandRecordBase(turn);
    if (base !== undefined)
      userCommand = {
        base,
        id: newCommandRecordId(base),
        name,
        ...(entry.args !== undefined && { args: entry.args }),
        recorded: false,
      };
  };

  /**
   * A command's record in the history: the limits it pinned are the running activation's, not
   * the file's as it is now. A record whose limits cannot be read allows no tools (fail closed).
   */
  const replayCommandRecord = (id: string, value: unknown) => {
    const command = userCommand!;
    command.recorded = true;
    command.id = id;
    const entry = state.active.find((a) => a.name === command.name);
    if (!entry) return;
    const data = (value as { data?: { name?: unknown; policy?: unknown } } | undefined)?.data;
    entry.policy =
      data?.name === command.name
        ? (readPinnedPolicy(data.policy) ?? { allowedTools: [], disallowedTools: [] })
        : { allowedTools: [], disallowedTools: [] };
  };

  /** A recorded fork's answer: a user-only skill's run counts against the user's "/name". */
  const noteUserFork = (value: unknown) => {
    const forked = (value as { data: { skill?: unknown } }).data.skill;
    if (typeof forked === "string" && source.get(forked)?.disableModelInvocation) forksForUser.add(forked);
  };

  /**
   * A workflow's run that did not finish (its activation call's result is the run's error):
   * the skill was active and ended, under the limits the result recorded (or its file's).
   */
  const replayFailedRun = (item: Extract<HistoryItem, { kind: "tool-call" }>, value: unknown) => {
    const result = value as { run_id?: unknown; policy?: unknown } | undefined;
    if (typeof result?.run_id !== "string") return;
    const names = toolNames();
    const generic = names.isGeneric(item.toolName);
    const target = generic ? undefined : names.skillName(item.toolName);
    if (!generic && target === undefined) return;
    const parsed = readActivationInput(item.input, generic);
    const name = target ?? (parsed.ok ? parsed.name : undefined);
    if (name === undefined) return;
    restoreActivation(name, undefined, item.id, readPinnedPolicy(result.policy));
    finish(name, "code");
  };

  const replayCall = (item: Extract<HistoryItem, { kind: "tool-call" }>) => {
    if (item.output === undefined) return; // a call that never produced a result changed nothing
    const { failed, value } = outputOf(item.output);
    // Only the record itself: the first activate_skill call with its id naming the command's
    // skill (a model can put the same, predictable id on a call of another tool whose output
    // it controls).
    if (
      userCommand !== undefined &&
      !userCommand.recorded &&
      isRecordOf(item.id, userCommand.base) &&
      !failed &&
      toolNames().isGeneric(item.toolName) &&
      (parseInput(item.input) as { name?: unknown } | undefined)?.name === userCommand.name
    ) {
      replayCommandRecord(item.id!, value);
      return;
    }
    if (failed) {
      replayFailedRun(item, value);
      return;
    }
    const names = toolNames();
    if (names.isEnd(item.toolName)) {
      endByModel(item.input);
      return;
    }
    // A forked skill ran in its own sub-agent: the conversation never had it active. A
    // user-only one ran for the user's "/name": not again in this turn.
    if (isForkOutput(value)) {
      noteUserFork(value);
      return;
    }
    const data = (value as { data?: { name?: unknown; policy?: unknown; arguments?: unknown } } | undefined)
      ?.data;
    const generic = names.isGeneric(item.toolName);
    const recordedName = typeof data?.name === "string" && data.name !== "" ? data.name : undefined;
    // activate_skill: the skill its result names is the one that ran (not whatever name the
    // call typed, should a result ever sit under another call).
    let target = generic ? recordedName : names.skillName(item.toolName);
    if (!generic && target === undefined) {
      // The tool of a skill whose file is gone no longer resolves: its recorded result names it.
      const ours = item.toolName.startsWith(SKILL_TOOL_PREFIX) && !hostSet.has(item.toolName);
      if (!ours || typeof data?.name !== "string" || data.name === "") return;
      target = data.name;
    }
    const parsed = readActivationInput(item.input, generic);
    if (!parsed.ok) return;
    // A typed skill ran with the arguments its result recorded (defaults filled in).
    const recorded = recordedArgumentsText(data?.arguments);
    restoreActivation(
      target ?? parsed.name!,
      recorded ?? parsed.args,
      item.id,
      readPinnedPolicy(data?.policy),
    );
  };

  // ── open: from the state or the history, then the latest user message ──
  const history = (options.history ?? []).filter(wellFormed);
  const historyToolNames = new Set<string>();
  for (const item of history) if (item.kind === "tool-call") historyToolNames.add(item.toolName);
  let latest = -1;
  let ordinal = 0;
  history.forEach((item, index) => {
    if (item.kind === "user") {
      latest = index;
      ordinal++;
    }
  });
  if (options.state === undefined) {
    let seen = 0;
    quietly(() => {
      history.forEach((item, index) => {
        if (item.kind === "user") {
          seen++;
          if (index === latest && index === history.length - 1) return; // new: begun live below
          beginTurn(item.text, turnId(item.text, seen));
        } else replayCall(item);
      });
    });
  }
  if (latest >= 0) {
    const text = (history[latest] as { text: string }).text;
    const id = turnId(text, ordinal);
    if (state.turn?.id === id) quietly(() => resumeTurn(text));
    else beginTurn(text, id);
  } else if (options.message !== undefined) {
    const id = turnId(options.message);
    if (state.turn?.id === id) quietly(() => resumeTurn(options.message!));
    else beginTurn(options.message, id);
  }
  if (options.state !== undefined) {
    // From a checkpoint: the user-only forks the latest turn's history shows already ran.
    for (const item of history.slice(latest + 1)) {
      if (item.kind !== "tool-call" || item.output === undefined) continue;
      const { failed, value } = outputOf(item.output);
      if (!failed && isForkOutput(value)) noteUserFork(value);
    }
  }

  // ── plan ──
  const catalogFor = (
    v: SkillsView,
    available: Skill[],
    candidates: readonly Candidate[],
    left: readonly string[],
  ): {
    text: string;
    names: readonly string[] | undefined;
    namesOfSkills?: boolean;
    problem?: Diagnostic;
  } => {
    if (!options.catalog || available.length === 0) return { text: "", names: undefined };
    try {
      const built = options.catalog({
        skills: available,
        candidates,
        list: v.list,
        active: left,
        offerable: v.offerable,
      });
      return { text: built.text, names: built.names, namesOfSkills: built.namesOfSkills };
    } catch (error) {
      // A throwing tokenizer (or any catalog bug) must not take the host's turn down.
      return { ...namesOnlyCatalog(available, candidates), problem: planFallback("catalog", error) };
    }
  };

  const planTurn = (input: PlanInput): TurnPlan => {
    learnTools(input.tools);
    if (input.message !== undefined && input.message !== turnMessage) {
      const id = turnId(input.message);
      if (state.turn?.id === id) quietly(() => resumeTurn(input.message!));
      else beginTurn(input.message, id);
    }
    // A later plan of the turn asks stage 1 again (its memo answers unless the usage changed),
    // as a session opened for this model call would.
    if (stage1?.used && turnMessage !== undefined) runMatch(turnMessage);
    if (stage1) stage1.used = true;
    const now = clock();
    const v = skillsView();
    const names = toolNames();
    const vetoed = new Set(match.vetoed.map((x) => x.name));
    const missing = options.offerWithoutTools
      ? undefined
      : missingTools(v.list, v.offerable, hostTools, aliases);
    const lacking = missing?.unusable;
    // Left out of this plan: the active skills and their group rivals, the vetoed ones, and those
    // whose tools the host lacks.
    const activeNames = state.active.map((a) => a.name);
    const rivals = rivalsOfActive(v.offerable, activeNames, (name) => source.get(name)?.group);
    const left = [...activeNames, ...rivals, ...vetoed];
    if (lacking && lacking.size > 0) left.push(...[...lacking].filter((name) => !left.includes(name)));
    const leftOut = new Set(left);
    const usable = (name: string) => v.offerableNames.has(name) && !leftOut.has(name);
    const candidates = match.candidates.filter((c) => usable(c.name));
    const reoffered = (state.turn?.ended ?? [])
      .filter((e) => e.why === "new-request" && usable(e.name))
      .map((e) => e.name);

    const top: Skill[] = [];
    // Asked for by name (checked against its file): a skill tool's arguments depend on the
    // body, which reading checks anyway.
    for (const name of [...candidates.slice(0, topCount).map((c) => c.name), ...reoffered]) {
      const skill = source.get(name);
      if (skill && !top.includes(skill)) top.push(skill);
    }
    // The forked skill the user asked for gets its tool this turn, user-only or not.
    const requested = forkRequest ? source.get(forkRequest.name) : undefined;
    if (requested && !top.includes(requested)) top.push(requested);
    // So does the workflow the user started with "/name".
    const workflow = workflowRequest ? source.get(workflowRequest.name) : undefined;
    if (workflow && !top.includes(workflow)) top.push(workflow);
    // A typed skill stays callable while active: a new request routed to it runs it again
    // with that request's arguments.
    for (const c of match.candidates) {
      if (!isActive(c.name) || vetoed.has(c.name)) continue;
      const skill = source.get(c.name);
      if (!skill || top.includes(skill)) continue;
      if (skillParameters(skill).parameters) top.push(skill);
    }
    const available = availableFor(v, left);
    const catalog = catalogFor(v, available, candidates, left);

    const tools: ToolSpec[] = [];
    for (const skill of top) {
      const tool = names.toolName(skill.name);
      if (tool !== undefined) tools.push(skillSpec(skill, tool));
    }
    if (names.generic !== undefined) {
      const spec = catalog.names
        ? activateSpecFor(names.generic, catalog.names, top, left, catalog.namesOfSkills ? undefined : usable)
        : // Names unique (a shelf's are): the available skills are exactly the usable ones.
          activateSpecFor(
            names.generic,
            available,
            top,
            left,
            v.offerableNames.size === v.offerable.length ? undefined : usable,
          );
      if (spec) tools.push(spec);
    }
    const runningNames = running().map((a) => a.name);
    if (runningNames.length > 0 && names.end !== undefined)
      tools.push(endSkillToolSpec(runningNames, names.end));
    const withFiles = withFolders();
    if (withFiles.length > 0 && names.read !== undefined)
      tools.push(
        readSkillFileToolSpec(
          withFiles.map((s) => s.name),
          names.read,
        ),
      );
    const withScripts = scriptsOf(withFiles);
    if (withScripts.length > 0 && names.script !== undefined)
      tools.push(runSkillScriptToolSpec(withScripts, names.script));
    for (const tool of tools) offered.add(tool.name);
    const unoffered = [
      names.generic,
      names.end,
      names.read,
      scriptsOn ? names.script : undefined,
      ...calledSkillTools(historyToolNames, names),
    ]
      .filter((name): name is string => name !== undefined && !tools.some((t) => t.name === name))
      .map(unofferedToolSpec);

    const p = policy();
    const allowedTools = p.allowedTools(hostTools);
    const diagnostics: Diagnostic[] = [
      ...(p.restricted ? [...p.unknownTools(hostTools), ...p.expansions(hostTools)] : []),
      ...names.diagnostics,
    ];
    if (missing && missing.diagnostics.length > 0) {
      const matched = new Set([...match.candidates.map((c) => c.name), ...state.active.map((a) => a.name)]);
      const files = [...matched].map((name) => (routed(name) ?? source.get(name))?.file);
      diagnostics.push(...missingToolsOf(missing, files));
    }
    if (matchProblem) diagnostics.push(matchProblem);
    if (catalog.problem) diagnostics.push(catalog.problem);
    const typedSkills = [...top, ...running().flatMap((a) => source.get(a.name) ?? [])].filter((skill) => {
      const report = skillParameters(skill);
      if (report.diagnostics.length > 0) diagnostics.push(...report.diagnostics);
      return report.parameters !== undefined;
    });

    const shownCandidates = candidates.slice(0, Math.max(topCount, 2));
    const ambiguous = match.ambiguous && candidates.length > 1;
    const ended = state.turn?.ended ?? [];
    const entries = state.active.flatMap((entry) => {
      const skill = source.get(entry.name);
      return skill ? [{ skill, entry }] : [];
    });
    const systemParts = [
      catalog.text,
      ambiguous ? say.ambiguityNote(shownCandidates.slice(0, 2).map((c) => c.name)) : "",
      say.endedNote(ended, (name) => (reoffered.includes(name) ? names.toolName(name) : undefined)),
      turnNote ?? "",
      requested && forkRequest && names.toolName(requested.name) !== undefined
        ? forkRequestNote(forkRequest.command, names.toolName(requested.name)!, forkRequest.args)
        : "",
      workflow && workflowRequest && names.toolName(workflow.name) !== undefined
        ? workflowRequestNote(workflowRequest.command, names.toolName(workflow.name)!, workflowRequest.input)
        : "",
      typedSkills.length > 0
        ? currentRequestNote(
            turnMessage,
            running().length > 0 ? undefined : currentDateLine(now, options.timeZone),
          )
        : "",
      activeSection(
        entries,
        now,
        options.timeZone,
        p.restricted ? allowedTools.map((t) => p.describe(t)) : undefined,
        names.end,
      ),
    ];
    const system = joinParts(systemParts);

    const plan: TurnPlan = {
      system,
      tools,
      unoffered,
      allowedTools,
      activeToolNames: [...allowedTools, ...tools.map((t) => t.name)],
      candidates,
      vetoed: match.vetoed,
      ambiguous,
      ended,
      diagnostics,
    };
    if (explicit) plan.explicit = explicit;
    const model = skillModel();
    if (model !== undefined) plan.model = model;
    return plan;
  };

  /** The `model` of the running skill activated last that names one (a later activation wins; a tie, the later entry). */
  const skillModel = (): string | undefined => {
    let chosen: { model: string; at: string } | undefined;
    for (const entry of running()) {
      const model = source.get(entry.name)?.model;
      // Claude Code's `inherit` means the conversation's own model.
      if (typeof model !== "string" || model.trim() === "" || model.trim() === "inherit") continue;
      if (!chosen || entry.at >= chosen.at) chosen = { model: model.trim(), at: entry.at };
    }
    return chosen?.model;
  };

  /** The last resort when planning itself failed: no skills offered, and never wider tool access. */
  const safePlan = (error: unknown): TurnPlan => {
    let allowedTools: string[];
    try {
      allowedTools = policy().allowedTools(hostTools);
    } catch {
      allowedTools = state.active.length > 0 ? [] : [...hostTools]; // least privilege
    }
    return {
      system: "",
      tools: [],
      allowedTools,
      activeToolNames: [...allowedTools],
      candidates: [],
      vetoed: [],
      ambiguous: false,
      ended: [],
      diagnostics: [planFallback("plan", error)],
    };
  };

  const isSkillTool = (toolName: string): boolean => {
    const names = toolNames();
    return (
      names.isGeneric(toolName) ||
      names.isEnd(toolName) ||
      names.skillName(toolName) !== undefined ||
      names.isRead(toolName) ||
      (scriptsOn && names.isScript(toolName))
    );
  };

  // ── the files active skills bring: the confined reader, and scripts when the host opts in ──
  const scriptsOn = options.scripts?.run === true;
  /** Running skills with a folder (builtins have none), in activation order. */
  const withFolders = (): Skill[] =>
    running().flatMap((a) => {
      const skill = source.get(a.name);
      return skill?.dir ? [skill] : [];
    });
  const scriptsOf = (skills: readonly Skill[]) =>
    scriptsOn
      ? skills.flatMap((skill) => {
          const scripts = listScripts(skillResources(skill));
          return scripts.length > 0 ? [{ skill: skill.name, scripts }] : [];
        })
      : [];

  /** The running skill a file call names (or the only one there is), or the refusal. */
  const fileSkill = (
    input: Record<string, unknown>,
    candidates: readonly Skill[],
    what: string,
  ): Skill | { problem: "NOT_ACTIVE" | "INVALID_ARGUMENTS"; message: string } => {
    const names = candidates.map((s) => s.name);
    if (candidates.length === 0) {
      return { problem: "NOT_ACTIVE", message: `No active skill has ${what}. Activate the skill first.` };
    }
    if (input.skill === undefined || input.skill === null || input.skill === "") {
      if (candidates.length === 1) return candidates[0]!;
      return {
        problem: "INVALID_ARGUMENTS",
        message: `Several active skills have ${what} (${toolList(names)}): say which one with "skill".`,
      };
    }
    const found = candidates.find((s) => s.name === input.skill);
    return (
      found ?? {
        problem: "NOT_ACTIVE",
        message: `"${String(input.skill)}" is not an active skill with ${what}. Active: ${toolList(names)}.`,
      }
    );
  };

  const inputObject = (input: unknown): Record<string, unknown> | undefined => {
    const value = parseInput(input ?? {});
    return value && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  };

  const readFile = (call: ToolCall): SkillFileResult => {
    const input = inputObject(call.input);
    if (!input) {
      return {
        status: "error",
        error_type: "INVALID_ARGUMENTS",
        message: `${call.name} takes {"path": "<file relative to the skill folder>", "skill": "<optional>"}.`,
      };
    }
    const skill = fileSkill(input, withFolders(), "files");
    if ("problem" in skill) return { status: "error", error_type: skill.problem, message: skill.message };
    const result = readSkillFilePage(skill.name, skill.dir!, input.path, {
      offset: input.offset,
      limit: input.limit,
    });
    if (result.status === "success" && silent === 0) {
      const at = clock();
      try {
        recordUse(skill.name, at);
      } catch {
        // Usage is a ranking hint; it never fails the read.
      }
      emit({ type: "skill-read", at: at.toISOString(), skill: skill.name, path: result.data.path });
    }
    return result;
  };

  const runScript = (call: ToolCall): Promise<ScriptRunResult> => {
    const input = inputObject(call.input);
    if (!input || !options.scripts) {
      return Promise.resolve({
        status: "error",
        error_type: "INVALID_ARGUMENTS",
        message: `${call.name} takes {"script": "scripts/<file>", "args": ["…"], "skill": "<optional>"}.`,
      });
    }
    const withScripts = scriptsOf(withFolders()).map((s) => source.get(s.skill)!);
    const skill = fileSkill(input, withScripts, "scripts");
    if ("problem" in skill) {
      return Promise.resolve({ status: "error", error_type: skill.problem, message: skill.message });
    }
    return runSkillScript(skill.name, skill.dir!, input.script, input.args, options.scripts);
  };

  // A workflow skill the model started: core runs its steps, and the activation call is
  // answered with the run's result (once per call id, like a script's run).
  const workflowRuns = new Map<string, Promise<WorkflowToolResult>>();
  const withWorkflow = (
    call: ToolCall,
    answer: ActivationResult | EndResult | undefined,
  ): ActivationResult | EndResult | Promise<WorkflowToolResult> | undefined => {
    const host = options.workflows;
    if (!host || answer?.status !== "success" || !("instructions" in answer.data)) return answer;
    const skill = source.get(answer.data.name);
    if (!skill?.steps?.length) return answer;
    const known = call.id !== undefined ? workflowRuns.get(call.id) : undefined;
    if (known) return known;
    // The user's "/name" asked for this run: asked no more (a host keeping one session per turn).
    if (workflowRequest?.name === skill.name) workflowRequest = undefined;
    const callTool = host.callTool;
    // Its steps also go to the tool call that started it, for the adapter to stream.
    const onProgress = workflowProgressRelay(skill.steps, host.onProgress);
    const runHost = onProgress ? { ...host, onProgress } : host;
    const run = runActivatedWorkflow({
      skill,
      activation: answer as Extract<ActivationResult, { status: "success" }>,
      args: state.active.find((a) => a.name === skill.name)?.args,
      ...(call.id !== undefined && { call: call.id }),
      // A step's host tool is held to the same whitelist as the model's own calls.
      host: callTool
        ? {
            ...runHost,
            callTool: (tool, input, signal) => {
              // skillshelf's own tools are the model's, not a step's: a skill file must not
              // activate, end or run another skill's files behind the model's back (the guard
              // lets them all pass, as it does for the model, whose calls core answers itself).
              if (isSkillTool(tool) || toolNames().isScript(tool)) {
                throw new Error(
                  `"${tool}" is one of skillshelf's own tools; a workflow step runs only the host's tools`,
                );
              }
              // Nor the delegation tool under any name it may take (as a forked skill never gets
              // it): a step would start a role's sub-agent the model never asked for.
              if (DELEGATION_TOOLS.has(tool)) {
                throw new Error(
                  `"${tool}" is skillshelf's delegation tool; a workflow step runs only the host's tools`,
                );
              }
              const verdict = guard({ name: tool, input });
              if (!verdict.allowed) throw new Error(verdict.result.message);
              return callTool(tool, input, signal);
            },
          }
        : runHost,
      ids,
      now: clock,
      timeZone: options.timeZone,
    }).then((result) => {
      // A run that did not finish ends the skill, as end_skill does: its limits hold until the
      // user's next message (a model must not shed them by making its own run fail), and a
      // rebuilt history reads it the same way.
      if (result.status === "error") finish(skill.name, "code");
      return result;
    });
    if (call.id !== undefined) workflowRuns.set(call.id, run);
    return run;
  };

  const answerSkillTool = (
    call: ToolCall,
  ): SkillToolResult | Promise<ScriptRunResult> | Promise<WorkflowToolResult> | undefined => {
    const names = toolNames();
    const reading = names.isRead(call.name);
    const scripting = scriptsOn && names.isScript(call.name);
    if (!reading && !scripting) return withWorkflow(call, callSkillTool(call));
    if (call.id !== undefined) {
      const known = fileAnswers.get(call.id);
      if (known) return known;
    }
    const result = reading ? readFile(call) : runScript(call);
    if (call.id !== undefined) fileAnswers.set(call.id, result);
    return result;
  };

  const callSkillTool = (call: ToolCall): ActivationResult | EndResult | undefined => {
    const key = call.id !== undefined ? callKey(call) : undefined;
    if (key !== undefined) {
      const known = answered.get(key);
      if (known) return known;
    }
    const names = toolNames();
    let result: ActivationResult | EndResult;
    const recorded =
      userCommand !== undefined &&
      call.id === userCommand.id &&
      names.isGeneric(call.name) &&
      (parseInput(call.input) as { name?: unknown } | undefined)?.name === userCommand.name;
    const commanded = recorded ? running().find((a) => a.name === userCommand!.name) : undefined;
    const commandedSkill = commanded ? source.get(commanded.name) : undefined;
    if (commanded && commandedSkill) {
      // The record of the user's command (made by the adapter, not the model): its answer pins
      // the limits the command started with, and changes nothing.
      userCommand!.recorded = true;
      result = success(
        commandedSkill,
        commanded,
        `Skill "${commanded.name}" is active: the user started it with its command.`,
      );
    } else if (names.isEnd(call.name)) result = endByModel(parseInput(call.input));
    else {
      const generic = names.isGeneric(call.name);
      const target = generic ? undefined : names.skillName(call.name);
      if (!generic && target === undefined) return undefined;
      // A skill's own tool the latest plan did not offer, for a skill that is not active:
      // refused before its input or the skill is looked at, in the words an adapter answers a
      // skill tool it never registered with (so a guess reads the same in every framework, and
      // learns nothing about the skill).
      if (target !== undefined && offeredNow && !offeredNow.has(call.name) && !isActive(target)) {
        result = refuse(target, "model", say.notOffered(call.name, target, undefined));
        if (key !== undefined) answered.set(key, result);
        return result;
      }
      const parsed = readActivationInput(call.input, generic);
      result = parsed.ok
        ? activateInternal(target ?? parsed.name!, "model", parsed.args, {
            ...(call.id !== undefined && { call: call.id }),
            values: parsed.values,
            tool: call.name,
          })
        : refuse(target ?? "", "model", {
            error_type: "INVALID_ARGUMENTS",
            message: `${call.name} was called with invalid input: ${parsed.problem}. Call it again with ${
              generic
                ? '{"name": "<skill name from the catalog>", "args": "<optional>"}'
                : '{"args": "<optional>"}'
            }.`,
          });
    }
    if (key !== undefined) answered.set(key, result);
    return result;
  };

  const blocked = (
    tool: string,
    error_type: "TOOL_NOT_ALLOWED" | "SKILL_FILES_PROTECTED",
    message: string,
    skill?: string,
  ): GuardResult => {
    const event: SkillEvent = {
      type: "tool-blocked",
      at: isoAt(clock()),
      tool,
      active: state.active.map((a) => a.name),
    };
    if (skill !== undefined) event.skill = skill;
    emit(event);
    return { allowed: false, result: { status: "error", error_type, message } };
  };

  const guard = (raw: ToolCall | string): GuardResult => {
    const call: ToolCall = typeof raw === "string" ? { name: raw } : raw;
    if (isSkillTool(call.name)) return { allowed: true };
    const input = parseInput(call.input);
    const reading = options.isReadTool?.(call.name) ?? false;
    if (options.protect && input !== undefined && !reading) {
      const target = options.protect.find(input);
      if (target) return blocked(call.name, "SKILL_FILES_PROTECTED", say.protectedFiles(call.name, target));
    }
    const p = policy();
    // `input` lets an argument-limited entry (`Bash(git:*)`) judge the call itself.
    const decision = p.decide(call.name, input);
    if (!decision.allowed) {
      const allowed = p.allowedTools(hostTools).map((t) => p.describe(t));
      const d = decision;
      const message =
        d.reason === "disallowed"
          ? say.blockedByDisallowed(call.name, d.skill, d.entries[0] ?? "", allowed)
          : d.reason === "not-in-allowed-tools"
            ? say.blockedByWhitelist(call.name, d.skill, allowed)
            : say.blockedArguments(
                call.name,
                d.skill,
                d.detail ?? `its allowed-tools are ${toolList(d.entries)}`,
              );
      return blocked(call.name, "TOOL_NOT_ALLOWED", message, d.skill);
    }
    if (reading && options.noteRead) {
      const file = readPath(input);
      if (file) {
        try {
          options.noteRead(file);
        } catch {
          // Counting a read is a ranking hint: it must never fail the host's tool call.
        }
      }
    }
    return { allowed: true };
  };

  return {
    get state() {
      return state;
    },
    plan(input = {}) {
      let plan: TurnPlan;
      try {
        plan = planTurn(input);
      } catch (error) {
        plan = safePlan(error);
      }
      offeredNow = new Map(plan.tools.map((t) => [t.name, t]));
      return plan;
    },
    respond(calls) {
      // Reads are answered in response order (after an activation before them, before an
      // end after them); a script runs only when its call runs, once the host approves it.
      const names = toolNames();
      for (const call of calls) {
        // (A workflow's run starts when its call runs, not here.)
        if (isSkillTool(call.name) && !names.isScript(call.name)) {
          if (names.isRead(call.name)) answerSkillTool(call);
          else callSkillTool(call);
        }
      }
    },
    isSkillTool,
    callSkillTool,
    answerSkillTool,
    commandRecord() {
      const command = userCommand;
      const tool = toolNames().generic;
      if (!command || command.recorded || tool === undefined) return undefined;
      if (!running().some((a) => a.name === command.name)) return undefined;
      return {
        id: command.id,
        name: tool,
        input: { name: command.name, ...(command.args !== undefined && { args: command.args }) },
      };
    },
    fork(call) {
      const names = toolNames();
      const activation =
        names.isGeneric(call.name) || (!names.isEnd(call.name) && names.skillName(call.name) !== undefined);
      if (!activation) return undefined;
      // This call's own answer says whether it started a fork (another call may share its id).
      const result = callSkillTool(call);
      if (result?.status !== "error" || result.error_type !== "FORK_UNAVAILABLE") return undefined;
      return call.id !== undefined ? forks.get(call.id) : lastFork;
    },
    guard,
    activate(name, activateOptions = {}) {
      return activateInternal(name, activateOptions.by ?? "code", activateOptions.args);
    },
    deactivate(name) {
      return end(name, "code");
    },
    allowedTools(tools) {
      return policy().allowedTools(tools ?? hostTools);
    },
    active() {
      return state.active.flatMap((a) => {
        const skill = source.get(a.name);
        return skill ? [skill] : [];
      });
    },
    toJSON() {
      return cloneState(state);
    },
  };
}

/**
 * The non-empty parts, a blank line between them. A plan of a new request is usually its
 * catalog alone: that text is then the system text itself, not a copy (≈ 18 K characters
 * per plan, copied and collected again).
 */
function joinParts(parts: readonly string[]): string {
  let only: string | undefined;
  let count = 0;
  for (const part of parts) {
    if (part === "") continue;
    only = part;
    count++;
  }
  if (count === 0) return "";
  if (count === 1) return only as string;
  return parts.filter((part) => part !== "").join("\n\n");
}

/**
 * A call's key for its kept answer: its id and its tool. (Not its input: a framework may hand
 * the tool a normalised copy of what the model sent, and a call asked again must find its
 * answer. Two calls of one tool under one id share the first's answer, which a replay reads
 * the same way: the skill a result names is the one restored.)
 */
function callKey(call: ToolCall): string {
  return `${call.id}\u0000${call.name}`;
}

function parseInput(input: unknown): unknown {
  if (typeof input !== "string") return input;
  const text = input.trim();
  if (!text.startsWith("{") && !text.startsWith("[")) return input;
  try {
    return JSON.parse(text);
  } catch {
    return input;
  }
}
