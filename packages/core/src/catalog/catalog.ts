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
 * `disable-model-invocation` skills are never listed: the model may not activate them.
 */
import type { Candidate, Skill } from "../types.js";
import { recency, type UsageStore } from "../usage/store.js";
import { type CountTokens, estimateTokens } from "./tokens.js";

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
  const full = `${skill.name}: ${description}${when ? ` — ${when}` : ""}`;
  if (full.length <= cap) return full;
  const cut = full.slice(0, cap - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > cap * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:—-]+$/u, "")}…`;
}

function collapse(text: string): string {
  return text.replace(/\s+/gu, " ").trim();
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
  const visible = skills.filter((s) => !s.disableModelInvocation);
  if (visible.length === 0) return { text: "", tokens: 0, entries: [], omitted: 0 };
  usage?.seen(
    visible.map((s) => s.name),
    now,
  );

  const ordered = order(visible, candidates, usage, now.getTime());
  const lines = [heading];
  let used = countTokens(heading);
  const entries: CatalogEntry[] = [];

  // Full entries while they fit, keeping room for the names-only heading and a "+N more".
  const reserve = countTokens(`\n${NAMES_HEADING}\n${more(ordered.length)}`);
  let i = 0;
  for (; i < ordered.length; i++) {
    const skill = ordered[i] as Skill;
    const line = `- ${catalogLine(skill, entryCap)}`;
    const cost = countTokens(`\n${line}`);
    const rest = i + 1 < ordered.length ? reserve : 0;
    if (used + cost + rest > budgetTokens) break;
    lines.push(line);
    used += cost;
    entries.push({ name: skill.name, form: "full" });
  }

  if (i < ordered.length) {
    const names: string[] = [];
    used += countTokens(`\n${NAMES_HEADING}\n`);
    const moreCost = countTokens(`\n${more(ordered.length)}`);
    for (; i < ordered.length; i++) {
      const name = (ordered[i] as Skill).name;
      const cost = countTokens(`${name}, `);
      const rest = i + 1 < ordered.length ? moreCost : 0;
      if (used + cost + rest > budgetTokens) break;
      names.push(name);
      used += cost;
      entries.push({ name, form: "name-only" });
    }
    if (names.length > 0) lines.push(NAMES_HEADING, names.join(", "));
  }

  let omitted = ordered.length - entries.length;
  let text = render(lines, omitted);
  let tokens = countTokens(text);
  // Piecewise counts can differ from the whole (an exact tokenizer merges across joins):
  // give back names until the whole text fits. The "+N more" line always stays.
  while (tokens > budgetTokens && entries.at(-1)?.form === "name-only") {
    entries.pop();
    omitted++;
    const names = lines.at(-1) as string;
    const cut = names.lastIndexOf(", ");
    if (cut === -1) lines.splice(-2, 2);
    else lines[lines.length - 1] = names.slice(0, cut);
    text = render(lines, omitted);
    tokens = countTokens(text);
  }
  return { text, tokens, entries, omitted };
}

function render(lines: readonly string[], omitted: number): string {
  return omitted > 0 ? `${lines.join("\n")}\n${more(omitted)}` : lines.join("\n");
}

/** Candidates first (deduplicated, in their order), then by recency, count, name. */
function order(
  visible: readonly Skill[],
  candidates: readonly (string | Pick<Candidate, "name">)[],
  usage: UsageStore | undefined,
  now: number,
): Skill[] {
  const byName = new Map(visible.map((s) => [s.name, s]));
  const first: Skill[] = [];
  for (const c of candidates) {
    const skill = byName.get(typeof c === "string" ? c : c.name);
    if (skill && !first.includes(skill)) first.push(skill);
  }
  const chosen = new Set(first);
  const rest = visible.filter((s) => !chosen.has(s));
  const key = new Map(
    rest.map((s) => {
      const record = usage?.get(s.name);
      return [s, { recency: recency(record, now), count: record?.count ?? 0 }];
    }),
  );
  rest.sort((a, b) => {
    const ka = key.get(a) as { recency: number; count: number };
    const kb = key.get(b) as { recency: number; count: number };
    if (ka.recency !== kb.recency) return kb.recency - ka.recency;
    if (ka.count !== kb.count) return kb.count - ka.count;
    return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  });
  return [...first, ...rest];
}
