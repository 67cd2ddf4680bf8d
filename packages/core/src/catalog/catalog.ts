/**
 * The catalog: what the model is told about skills it has not loaded (seed 002's L1 index,
 * DESIGN.md §4).
 *
 * Order: this turn's stage-1 candidates first (in their ranked order), then every other
 * model-invocable skill by usage: last used first, where a skill never used counts from
 * when it was first seen, so a new skill starts at the top instead of being buried (seed
 * 002's cold start) and sinks if nobody uses it.
 *
 * Form: one line per skill, `- name: description — when_to_use`, cut to `entryCap`
 * characters. When the next full line would pass `budgetTokens`, that skill and every
 * later one are listed by name only. If even the names do not fit, the catalog ends with
 * "+N more …" saying how the rest are reached — nothing is ever dropped silently.
 * `disable-model-invocation` skills are never listed: the model may not activate them; nor
 * are role skills (sub-agent instructions, reached by delegation).
 *
 * Like the matcher, it treats a `skills` array as immutable and caches by its identity (the
 * shelf hands out a new array when something changes): per-list facts and the usage order
 * (while the usage store's `version()` is unchanged), per-skill lines and token costs, and
 * per tokenizer the costs of its fixed texts (headings, "+N more").
 */
import type { Candidate, Skill } from "../types.js";
import type { UsageStore } from "../usage/store.js";
import { catalogText } from "./catalog-text.js";
import { type CountTokens, estimateTokens } from "./tokens.js";
import { usageOrder } from "./usage-order.js";

export interface CatalogEntry {
  name: string;
  form: "full" | "name-only";
}

export interface Catalog {
  /** The exact text to put in the system prompt ("" when there is no skill to list). */
  text: string;
  /** `countTokens(text)`. */
  tokens: number;
  /** Listed skills, in order. */
  entries: CatalogEntry[];
  /** Skills not even named for lack of budget (the text says "+N more"). */
  omitted: number;
}

export interface CatalogOptions {
  skills: readonly Skill[];
  /** This turn's candidates (names or stage-1 candidates), listed first. */
  candidates?: readonly (string | Pick<Candidate, "name">)[];
  /** Orders the other skills; marks skills as seen the first time they are listed. */
  usage?: UsageStore;
  /** Default 4,000. */
  budgetTokens?: number;
  /** Max characters of one full entry. Default 250. */
  entryCap?: number;
  /** Default {@link estimateTokens}. */
  countTokens?: CountTokens;
  /** First line of the catalog. */
  heading?: string;
  /** "Now", for ordering and first-seen marks (tests). */
  now?: Date;
  /**
   * Names of `skills` not to list (the active ones): cheaper than a filtered copy of a long
   * list, whose order and lookups would be made again for every new set of active skills.
   */
  exclude?: readonly string[];
}

export const DEFAULT_CATALOG_HEADING =
  "Skills you can load (each line: name: what it does — when to use it). Load a skill before doing a task it covers.";
const NAMES_HEADING = "More skills (name only; load one by name if it fits the task):";
const more = (n: number) =>
  `+${n} more skill${n === 1 ? "" : "s"} not listed here: they are offered when a request matches them.`;

/** `name: description — when_to_use`, whitespace collapsed, cut at a word to `cap` characters. */
export function catalogLine(skill: Skill, cap = 250): string {
  const description = collapse(skill.description);
  const when = skill.whenToUse ? collapse(skill.whenToUse) : "";
  // What a skill is not for keeps its own room (at most a third of the entry): a misfire costs
  // more than a miss, so a long description never pushes the exclusions out.
  const notFor =
    skill.exclusions.length > 0
      ? ` (not for: ${clip(collapse(skill.exclusions.join("; ")), Math.floor(cap / 3))})`
      : "";
  const full = `${skill.name}: ${description}${when ? ` — ${when}` : ""}`;
  if (full.length + notFor.length <= cap) return `${full}${notFor}`;
  return `${clip(full, Math.max(cap - notFor.length, 20))}${notFor}`;
}

function clip(text: string, cap: number): string {
  if (text.length <= cap) return text;
  const cut = text.slice(0, cap - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > cap * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:—-]+$/u, "")}…`;
}

function collapse(text: string): string {
  return text.replace(/\s+/gu, " ").trim();
}

interface Entry {
  line: string;
  /** Tokens of "\n- <line>". */
  cost: number;
}

// A skill's line and its token costs only change with the skill (a new object), the cap or
// the tokenizer: cached, so a catalog of 10,000 skills is not re-rendered and re-counted per
// message (the plan() benchmark found buildCatalog to be most of a turn's cost).
const entries = new WeakMap<CountTokens, WeakMap<Skill, Entry & { cap: number }>>();
// Apart: most skills of a long list are only named, and rendering their full line for that
// was most of a cold start's first catalog.
const nameCosts = new WeakMap<CountTokens, WeakMap<Skill, number>>();

/** A tokenizer's cache of one kind, made on its first use. */
function cacheFor<K extends object, V>(
  caches: WeakMap<CountTokens, WeakMap<K, V>>,
  countTokens: CountTokens,
) {
  let cache = caches.get(countTokens);
  if (!cache) {
    cache = new WeakMap();
    caches.set(countTokens, cache);
  }
  return cache;
}

function entryOf(
  skill: Skill,
  cap: number,
  countTokens: CountTokens,
  perSkill: WeakMap<Skill, Entry & { cap: number }>,
): Entry {
  let entry = perSkill.get(skill);
  if (!entry || entry.cap !== cap) {
    const line = `- ${catalogLine(skill, cap)}`;
    entry = { cap, line, cost: countTokens(`\n${line}`) };
    perSkill.set(skill, entry);
  }
  return entry;
}

/** Tokens of "<name>, ". */
function nameCostOf(skill: Skill, countTokens: CountTokens, perSkill: WeakMap<Skill, number>): number {
  let cost = perSkill.get(skill);
  if (cost === undefined) {
    cost = countTokens(`${skill.name}, `);
    perSkill.set(skill, cost);
  }
  return cost;
}

// The heading, the names-only heading and the "+N more" lines are the same few texts on every
// call: counted once per tokenizer (counting them was a fifth of a new request's catalog at
// 1,000 skills). Bounded: a caller's own headings come and go.
const fixedCosts = new WeakMap<CountTokens, Map<string, number>>();
const FIXED_COSTS_KEPT = 256;

function fixedCostOf(text: string, countTokens: CountTokens): number {
  let costs = fixedCosts.get(countTokens);
  if (!costs) {
    costs = new Map();
    fixedCosts.set(countTokens, costs);
  }
  let cost = costs.get(text);
  if (cost === undefined) {
    cost = countTokens(text);
    if (costs.size >= FIXED_COSTS_KEPT) costs.clear();
    costs.set(text, cost);
  }
  return cost;
}

/** What a skill list needs per call, computed once per list. */
interface ListFacts {
  visible: readonly Skill[];
  byName: Map<string, Skill>;
  /** The usage state after this list was last marked seen (skip marking again). */
  seenAt?: { usage: UsageStore; version: number };
}
const facts = new WeakMap<readonly Skill[], ListFacts>();

function factsOf(skills: readonly Skill[]): ListFacts {
  let f = facts.get(skills);
  if (!f) {
    const visible = skills.filter((s) => !s.disableModelInvocation && !s.role);
    // Set one by one: a [name, skill] pair per skill was as many arrays as skills.
    const byName = new Map<string, Skill>();
    for (const skill of visible) byName.set(skill.name, skill);
    f = { visible, byName };
    facts.set(skills, f);
  }
  return f;
}

export function buildCatalog(options: CatalogOptions): Catalog {
  const {
    skills,
    candidates = [],
    usage,
    budgetTokens = 4_000,
    entryCap = 250,
    countTokens = estimateTokens,
    heading = DEFAULT_CATALOG_HEADING,
    now = new Date(),
  } = options;
  const list = factsOf(skills);
  const { visible } = list;
  const excluded = new Set<string>();
  for (const name of options.exclude ?? []) if (list.byName.has(name)) excluded.add(name);
  const total = visible.length - excluded.size;
  if (total <= 0) return { text: "", tokens: 0, entries: [], omitted: 0 };
  if (usage) {
    const version = usage.version?.();
    // Marked at an earlier version and only known changes since (uses, marks: a record is never
    // taken away by them): still marked, without walking every name again.
    const marked =
      list.seenAt?.usage === usage &&
      version !== undefined &&
      (list.seenAt.version === version || usage.changedSince?.(list.seenAt.version) !== undefined);
    if (marked && list.seenAt) list.seenAt.version = version as number;
    if (!marked) {
      usage.seen(
        visible.map((s) => s.name),
        now,
      );
      const after = usage.version?.();
      list.seenAt = after === undefined ? undefined : { usage, version: after };
    }
  }

  // Candidates first (deduplicated, in their order), then the rest by usage: walked lazily,
  // since past the budget the rest is only counted.
  const first: Skill[] = [];
  for (const c of candidates) {
    const skill = list.byName.get(typeof c === "string" ? c : c.name);
    if (skill && !excluded.has(skill.name) && !first.includes(skill)) first.push(skill);
  }
  const rest = usageOrder(skills, visible, list.byName, usage, now.getTime());
  let restAt = 0;
  let taken = 0;
  /** Where in `rest` the skill `next` returned is (-1: a candidate). */
  let at = -1;
  const next = (): Skill | undefined => {
    if (taken < first.length) {
      at = -1;
      return first[taken++];
    }
    while (restAt < rest.length) {
      const skill = rest[restAt++] as Skill;
      if (!first.includes(skill) && !excluded.has(skill.name)) {
        taken++;
        at = restAt - 1;
        return skill;
      }
    }
    return undefined;
  };

  const lines = [heading];
  let used = fixedCostOf(heading, countTokens);
  const entryCache = cacheFor(entries, countTokens);
  const listed: CatalogEntry[] = [];
  // The full lines again, as catalogText takes them: the candidates' lines, and where in
  // `rest` each other one is.
  const firstLines: string[] = [];
  const restPositions: number[] = [];

  // Full entries while they fit, keeping room for the names-only heading and a "+N more".
  const reserve = fixedCostOf(`\n${NAMES_HEADING}\n${more(total)}`, countTokens);
  let skill = next();
  for (; skill !== undefined; skill = next()) {
    const entry = entryOf(skill, entryCap, countTokens, entryCache);
    const rest = taken < total ? reserve : 0;
    if (used + entry.cost + rest > budgetTokens) break;
    lines.push(entry.line);
    if (at < 0) firstLines.push(entry.line);
    else restPositions.push(at);
    used += entry.cost;
    listed.push({ name: skill.name, form: "full" });
  }

  const tail: string[] = [];
  if (skill !== undefined) {
    const names: string[] = [];
    used += fixedCostOf(`\n${NAMES_HEADING}\n`, countTokens);
    const moreCost = fixedCostOf(`\n${more(total)}`, countTokens);
    const nameCache = cacheFor(nameCosts, countTokens);
    for (; skill !== undefined; skill = next()) {
      const cost = nameCostOf(skill, countTokens, nameCache);
      const rest = taken < total ? moreCost : 0;
      if (used + cost + rest > budgetTokens) break;
      names.push(skill.name);
      used += cost;
      listed.push({ name: skill.name, form: "name-only" });
    }
    if (names.length > 0) {
      lines.push(NAMES_HEADING, names.join(", "));
      tail.push(NAMES_HEADING, lines[lines.length - 1] as string);
    }
  }

  let omitted = total - listed.length;
  // The default estimate is additive, so the running sum (+ the "+N more" line) is already a
  // bound on the whole; an exact tokenizer may merge across joins, so it recounts the text.
  const exact = countTokens !== estimateTokens;
  if (omitted > 0) tail.push(more(omitted));
  // The same text as `render(lines, omitted)`, most of it sliced from the usage order's lines
  // joined once (catalog-text.ts); an exact tokenizer reads the text whole anyway.
  let text = exact
    ? render(lines, omitted)
    : catalogText(
        heading,
        firstLines,
        rest,
        restPositions,
        tail,
        entryCap,
        (s) => entryOf(s, entryCap, countTokens, entryCache).line,
      );
  let tokens = exact
    ? countTokens(text)
    : used + (omitted > 0 ? fixedCostOf(`\n${more(omitted)}`, countTokens) : 0);
  // Give back names until the whole text fits. The "+N more" line always stays.
  while (tokens > budgetTokens && listed.at(-1)?.form === "name-only") {
    listed.pop();
    omitted++;
    const names = lines.at(-1) as string;
    const cut = names.lastIndexOf(", ");
    if (cut === -1) lines.splice(-2, 2);
    else lines[lines.length - 1] = names.slice(0, cut);
    text = render(lines, omitted);
    tokens = countTokens(text);
  }
  return { text, tokens, entries: listed, omitted };
}

function render(lines: readonly string[], omitted: number): string {
  return omitted > 0 ? `${lines.join("\n")}\n${more(omitted)}` : lines.join("\n");
}
