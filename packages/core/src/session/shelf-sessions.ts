/**
 * How a shelf makes sessions: its stage-1 matcher, its budgeted catalog, its usage store
 * and its event sink, wired once and shared by every session it hands out.
 */
import path from "node:path";
import { buildCatalog } from "../catalog/catalog.js";
import type { CountTokens } from "../catalog/tokens.js";
import { jsonlEventSink } from "../events/jsonl-sink.js";
import type { Matcher } from "../match/matcher.js";
import type { ToolAliases } from "../policy/aliases.js";
import type {
  EventSink,
  HistoryItem,
  MatchResult,
  Session,
  SessionState,
  Skill,
  SkillSource,
} from "../types.js";
import type { UsageStore } from "../usage/store.js";
import { sessionFromHistory } from "./from-history.js";
import { createSession, type SessionCatalog, type SessionMatcher, type SessionOptions } from "./session.js";

export const EVENTS_FILE = "events.jsonl";
const CATALOG_CACHE_SIZE = 64;
const MATCH_CACHE_SIZE = 64;

export interface ShelfSessionsOptions {
  skills: SkillSource;
  matcher: Matcher;
  usage?: UsageStore;
  /** The sink; `undefined` = JSONL under `stateDir`; `false` = none. */
  events?: EventSink | false;
  /** Where the default JSONL event log goes (`<stateDir>/events.jsonl`). */
  stateDir: string;
  toolAliases?: ToolAliases;
  topCandidates?: number;
  /** Catalog budget in tokens (default 4,000) and per-entry cap in characters (default 250). */
  budgetTokens?: number;
  entryCap?: number;
  countTokens?: CountTokens;
  timeZone?: string;
  now?: () => Date;
}

/** Per-session settings a host may change from the shelf's (e.g. one agent with other tools). */
export interface SessionOverrides {
  /** Merged over the shelf's aliases, key by key. */
  toolAliases?: ToolAliases;
  /** How many top candidates get their own `skill_<name>` tool (default 3). */
  topCandidates?: number;
  /** Time zone for the date given to active skills (default: the runtime's). */
  timeZone?: string;
  /**
   * The host's own tool names. Activation tools never take one of them, and a call to one is
   * never read as an activation (also in a history replay). Pass them wherever the session
   * is rebuilt before a plan, e.g. to run a tool call: `plan({ tools })` only tells the
   * session that plans.
   */
  tools?: readonly string[];
}

export interface ShelfSessions {
  session(state?: SessionState, overrides?: SessionOverrides): Session;
  fromHistory(history: readonly HistoryItem[], overrides?: SessionOverrides): Session;
  /** The sink every session emits to (undefined when events are off). */
  readonly events: EventSink | undefined;
  /** Record a use that happened outside a session (e.g. a host's file tool read the SKILL.md), so cached catalogs reorder. */
  recordUse(name: string, at?: Date): void;
  /** Wait until every event emitted so far is written. */
  flush(): Promise<void>;
}

export function createShelfSessions(options: ShelfSessionsOptions): ShelfSessions {
  const events =
    options.events === false
      ? undefined
      : (options.events ?? jsonlEventSink(path.join(options.stateDir, EVENTS_FILE)));
  const { matcher, usage } = options;

  // Catalogs are shared by every session of the shelf: a stateless host builds a session per
  // step, and most turns repeat a candidate set (often the empty one). A catalog changes with
  // the skill list, the active skills, the candidates and the usage order; uses recorded by
  // sessions bump `usageVersion` (a read noted elsewhere reorders at the next change).
  let usageVersion = 0;
  const recorder = usage && {
    record(name: string, at: Date) {
      usage.record(name, at);
      usageVersion++;
    },
  };
  const catalogs = new Map<string, { text: string; names: readonly string[] | undefined }>();
  let catalogList: readonly Skill[] | undefined;
  const catalog: SessionCatalog = ({ skills, candidates, list, active }) => {
    if (list !== catalogList) {
      catalogs.clear();
      catalogList = list;
    }
    const key = `${usageVersion}\u0001${active.join("\u0000")}\u0001${candidates.map((c) => c.name).join("\u0000")}`;
    let built = catalogs.get(key);
    if (built === undefined) {
      const result = buildCatalog({
        skills,
        candidates,
        usage,
        budgetTokens: options.budgetTokens,
        entryCap: options.entryCap,
        countTokens: options.countTokens,
        now: options.now?.(),
      });
      // Name every listed skill in activate_skill's enum only when the catalog had to leave some out.
      built = {
        text: result.text,
        names: result.omitted > 0 ? result.entries.map((e) => e.name) : undefined,
      };
      if (catalogs.size >= CATALOG_CACHE_SIZE) catalogs.delete(catalogs.keys().next().value!);
    } else catalogs.delete(key); // re-insert below: most recently used last
    catalogs.set(key, built);
    return built;
  };

  // Stage 1 per message, shared the same way: a stateless host rebuilds its session at every
  // step and every tool call, and each rebuilt session plans the same message again. A result
  // holds while the skill list and the usage records (usage breaks ties) stay the same: uses
  // recorded here, or any change a store with `version()` reports (e.g. a shared store).
  const matches = new Map<string, MatchResult>();
  let matchList: readonly Skill[] | undefined;
  let matchUsage = "";
  const match: SessionMatcher = (skills, message) => {
    const usageNow = `${usageVersion}:${usage?.version?.() ?? ""}`;
    if (skills !== matchList || usageNow !== matchUsage) {
      matches.clear();
      matchList = skills;
      matchUsage = usageNow;
    }
    let result = matches.get(message);
    if (result === undefined) {
      result = matcher.match(skills, message, { usage });
      if (matches.size >= MATCH_CACHE_SIZE) matches.delete(matches.keys().next().value!);
      matches.set(message, result);
    }
    return result;
  };

  const base: Omit<SessionOptions, "state"> = {
    skills: options.skills,
    match,
    catalog,
    usage: recorder,
    events,
    toolAliases: options.toolAliases,
    topCandidates: options.topCandidates,
    timeZone: options.timeZone,
    now: options.now,
  };
  // One merged alias map per override object: a host passes the same object for every rebuilt
  // session, and compiled whitelists are cached per alias map.
  const mergedAliases = new WeakMap<ToolAliases, ToolAliases>();
  const aliasesWith = (extra: ToolAliases): ToolAliases => {
    let merged = mergedAliases.get(extra);
    if (!merged) {
      merged = { ...base.toolAliases, ...extra };
      mergedAliases.set(extra, merged);
    }
    return merged;
  };
  const withOverrides = (overrides: SessionOverrides | undefined): Omit<SessionOptions, "state"> => {
    if (!overrides) return base;
    const merged = { ...base };
    if (overrides.toolAliases) merged.toolAliases = aliasesWith(overrides.toolAliases);
    if (overrides.topCandidates !== undefined) merged.topCandidates = overrides.topCandidates;
    if (overrides.timeZone !== undefined) merged.timeZone = overrides.timeZone;
    if (overrides.tools !== undefined) merged.tools = overrides.tools;
    return merged;
  };

  return {
    events,
    recordUse: (name, at = new Date()) => recorder?.record(name, at),
    session: (state, overrides) => createSession({ ...withOverrides(overrides), state }),
    fromHistory: (history, overrides) => sessionFromHistory(history, withOverrides(overrides)),
    flush: async () => {
      const flushable = events as { flush?: () => Promise<void> } | undefined;
      await flushable?.flush?.();
    },
  };
}
