/**
 * Stage 1: which skills could this message be for? Deterministic, explainable, offline.
 *
 * Signals, each reported as a reason:
 * - `trigger`: a `triggers` phrase matched (see triggers.ts). Author intent: always a
 *   candidate, scored at least `triggerFloor`.
 * - `name`: the skill's name is written in the message ("use dotnet-api").
 * - `example`: the message is close to one of the skill's `examples` (idf-weighted overlap).
 * - `lexical`: BM25F relevance over name, description (without its "do not use for …"
 *   clauses), when_to_use, triggers, examples and the start of the body, read as evidence:
 *   the matched words' idf × saturated tf, in units of one word only one skill uses,
 *   squashed to 0‥1. Words common across the shelf's own skills or in everyday language are
 *   generic: a skill that only generic words point at is never a lexical candidate ("only
 *   generic words matched"). How much of the message's informative part a skill's words
 *   cover (coverage.ts) and how familiar the request is to the shelf, measured against the
 *   shelf's own examples, or for a skill without examples against its skills' texts
 *   (familiarity.ts), decide whether stage 1 offers anything: only if one candidate still
 *   reaches `minScore` with its evidence discounted by both. They judge the request, so they
 *   do not rank the skills.
 * - `semantic`: cosine similarity from the host's `embed` function. `match()` is synchronous
 *   and never waits on a model: `matchAsync()` embeds the message (and each skill once, cached
 *   per Skill object; `prepare()` does it ahead of time), or a host passes the message's
 *   vector to `match(…, { vector })` after `prepare()`.
 * - `usage`: never adds to the score; it orders candidates whose scores are exactly equal.
 *
 * Then: `exclusions` veto (reported in `vetoed`), `disable-model-invocation` and `role`
 * skills are never candidates (unless `includeHidden`), scores under `minScore` are dropped (so an
 * unrelated message gets no candidate), within `margin` of the top a higher `priority`
 * wins and equal priorities make the result `ambiguous`, and each `group` keeps its best.
 */
import type {
  Candidate,
  Diagnostic,
  MatchOptions,
  MatchReason,
  MatchResult,
  Rejected,
  Skill,
  Vetoed,
} from "../types.js";
import { recency, type UsageStore } from "../usage/store.js";
import { BestExamples } from "./best-examples.js";
import {
  type CoverageTuning,
  coveredScore,
  DEFAULT_COVERAGE_TUNING,
  everyday,
  evidenceScore,
  informativeness,
  queryInformativeMass,
} from "./coverage.js";
import { everydayWeightsOf, familiarity, referenceFromSkills, referenceKnownShare } from "./familiarity.js";
import { DEFAULT_INDEX_TUNING, type IndexTuning, knownTerm, type LexicalIndex } from "./lexical-index.js";
import { REQUEST_VERB_INFORMATIVENESS, REQUEST_VERB_TERMS } from "./request-verbs.js";
import { SkillIndexCache, type SkillRules } from "./skill-index.js";
import { analyze } from "./tokenize.js";
import { type CompiledTrigger, type TriggerInput, triggerInput } from "./triggers.js";

/** The host's embedding model: one vector per text, same order. */
export type EmbedFunction = (texts: string[]) => Promise<number[][]>;

export interface MatchTuning extends IndexTuning, CoverageTuning {
  /** Candidates scoring below this are dropped: the "no skill applies" threshold. */
  minScore: number;
  /** Top two within this (absolute, on the 0‥1 score) are a near-tie: priority decides, else ambiguous. */
  margin: number;
  /** A trigger hit scores at least this (plus the rest of its relevance on top). */
  triggerFloor: number;
  /** The skill's name written in the message scores at least this. */
  nameFloor: number;
  /** A message this close to one of the skill's examples (idf-weighted Dice, 0‥1) scores at least `nameFloor`. */
  exampleMatch: number;
  /** Share of the final score given to the semantic signal when `embed` is used. */
  semanticWeight: number;
  /** Judge a request's familiarity against the shelf's own examples and skill texts (familiarity.ts). */
  familiarity: boolean;
}

export const DEFAULT_TUNING: MatchTuning = {
  ...DEFAULT_INDEX_TUNING,
  ...DEFAULT_COVERAGE_TUNING,
  minScore: 0.21,
  margin: 0.01,
  triggerFloor: 0.7,
  nameFloor: 0.6,
  exampleMatch: 0.7,
  semanticWeight: 0.5,
  familiarity: true,
};

export interface MatcherOptions extends Partial<Omit<MatchTuning, "fields">> {
  fields?: Partial<MatchTuning["fields"]>;
  /** Optional semantic scoring with the host's embedding model; used by `matchAsync`. */
  embed?: EmbedFunction;
  /** Messages are cut to this many characters before matching (default 10,000). */
  maxMessageLength?: number;
}

export interface MatchCallOptions extends MatchOptions {
  /** Usage, for breaking exact ties (and explaining them). */
  usage?: UsageStore;
  /** The message's embedding, when the host computed it (sync semantic scoring after `prepare`). */
  vector?: readonly number[];
}

export interface Matcher {
  readonly tuning: Readonly<MatchTuning>;
  /** Stage 1, synchronous: everything but embeddings (or with `options.vector` after `prepare`). */
  match(skills: readonly Skill[], message: string, options?: MatchCallOptions): MatchResult;
  /**
   * Stage 1 with the semantic signal: embeds the message (and any skill not embedded yet)
   * with `embed`, then scores like `match`. Without `embed` it is `match`.
   */
  matchAsync(skills: readonly Skill[], message: string, options?: MatchCallOptions): Promise<MatchResult>;
  /** Embed every skill ahead of time (cached per skill object), so the first matchAsync is fast. */
  prepare(skills: readonly Skill[]): Promise<void>;
  /** Triggers and exclusions that could not be compiled (`invalid-trigger`): they are ignored. */
  diagnostics(skills: readonly Skill[]): Diagnostic[];
}

interface Anchored {
  triggers: number[];
  names: number[];
}

interface Prepared {
  skills: readonly Skill[];
  lexical: LexicalIndex;
  rules: SkillRules[];
  /**
   * anchor key → its [skill, trigger index] pairs and the skills whose name rule hangs on it:
   * one map, so each word of a message is looked up once.
   */
  anchored: Map<string, Anchored>;
  /** Triggers with no anchor (regex): tried on every message. */
  unanchored: number[];
  diagnostics: Diagnostic[];
  /**
   * 1 for a skill hidden from the model (see `score`), read once here: the pool loop would
   * otherwise read two fields of every pooled skill object per message, and a skill whose
   * body is read on first use is a slower object to read fields from.
   */
  hidden: Uint8Array;
  /** 1 for a skill with examples: judged against the shelf's examples, the rest against its skills. */
  exampled: Uint8Array;
  /** Skills without examples. */
  unexampled: number;
  /** The shelf's reference known shares (familiarity.ts), each computed on the first match that needs it. */
  exampleReference?: number;
  skillReference?: number;
  /**
   * A match is using the scratch buffers below: they are reused across messages, and a match
   * started inside another (a usage store that matches from `get`) must not share them.
   */
  busy: boolean;
  // Scratch buffers reused across messages.
  lexScore: Float64Array;
  lexMask: Int32Array;
  /**
   * Σ informativeness of the message words each skill matched, and the most informative one:
   * only written for a message of more than MAX_MASK_TERMS known words (below that the mask
   * says which words matched).
   */
  lexCover: Float64Array;
  lexTop: Float64Array;
  /** How many of the message's non-generic words each skill matched (same condition as lexCover). */
  lexStrong: Int32Array;
  exScore: Float64Array;
  /** The examples a message's words touched. */
  exTouched: Int32Array;
  bestExample: BestExamples;
  inPool: Uint8Array;
  /** The skills the postings touched, then those other signals added. */
  pool: Int32Array;
  passIndex: Int32Array;
  passScore: Float64Array;
  passLex: Float64Array;
  /** Each passing skill's score with its evidence discounted by its coverage and the request's familiarity. */
  passFamiliar: Float64Array;
  /** Each known term's everyday informativeness, by term id (NaN: not yet asked), made on first use. */
  everydayById?: Float64Array;
}

const TIE = 1e-9;
const MAX_MASK_TERMS = 31;

export function createMatcher(options: MatcherOptions = {}): Matcher {
  const { embed, maxMessageLength = 10_000, fields, ...rest } = options;
  const tuning: MatchTuning = {
    ...DEFAULT_TUNING,
    ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)),
    fields: { ...DEFAULT_TUNING.fields, ...fields },
  };
  // Per skills array (a shelf hands out the same array until something changes), and per
  // skill across arrays: a rebuild re-reads only the skills it has not seen (skill-index.ts).
  const cache = new WeakMap<readonly Skill[], Prepared>();
  const index = new SkillIndexCache(tuning);
  const vectors = new WeakMap<Skill, Float32Array[]>();

  function prepared(skills: readonly Skill[]): Prepared {
    let p = cache.get(skills);
    if (!p) {
      p = prepare(skills, index, tuning.everydayWords);
      cache.set(skills, p);
    }
    return p;
  }

  function run(
    skills: readonly Skill[],
    message: string,
    call: MatchCallOptions,
    semantic?: Float64Array,
  ): MatchResult {
    const p = prepared(skills);
    const text = message.slice(0, maxMessageLength);
    // A match inside a running one (from a usage store's `get`) gets working arrays of its own.
    if (p.busy)
      return score({ ...p, ...scratch(skills.length, p.lexical.exampleCount) }, text, call, tuning, semantic);
    p.busy = true;
    try {
      return score(p, text, call, tuning, semantic);
    } finally {
      p.busy = false;
    }
  }

  async function ensureVectors(skills: readonly Skill[]): Promise<void> {
    if (!embed) return;
    const missing = skills.filter((s) => !vectors.has(s));
    if (missing.length === 0) return;
    const texts = missing.map(semanticTexts);
    const flat = await embed(texts.flat());
    let at = 0;
    missing.forEach((skill, i) => {
      const count = (texts[i] as string[]).length;
      vectors.set(skill, flat.slice(at, at + count).map(unit));
      at += count;
    });
  }

  function semanticScores(skills: readonly Skill[], vector: readonly number[]): Float64Array | undefined {
    const q = unit(vector);
    const out = new Float64Array(skills.length);
    let any = false;
    skills.forEach((skill, i) => {
      const list = vectors.get(skill);
      if (!list) return;
      any = true;
      let best = 0;
      for (const v of list) best = Math.max(best, dot(q, v));
      out[i] = best;
    });
    return any ? out : undefined;
  }

  return {
    tuning,
    match(skills, message, call = {}) {
      const semantic = call.vector ? semanticScores(skills, call.vector) : undefined;
      return run(skills, message, call, semantic);
    },
    async matchAsync(skills, message, call = {}) {
      if (!embed) return run(skills, message, call);
      await ensureVectors(skills);
      const vector = call.vector ?? (await embed([message.slice(0, maxMessageLength)]))[0];
      return run(skills, message, call, vector ? semanticScores(skills, vector) : undefined);
    },
    prepare: ensureVectors,
    diagnostics: (skills) => [...prepared(skills).diagnostics],
  };
}

/** The texts embedded for a skill: its listing line, then each example request. */
function semanticTexts(skill: Skill): string[] {
  const listing = [skill.name, skill.description, skill.whenToUse].filter(Boolean).join(": ");
  return [listing, ...skill.examples];
}

function unit(vector: readonly number[]): Float32Array {
  let norm = 0;
  for (const x of vector) norm += x * x;
  norm = Math.sqrt(norm) || 1;
  return Float32Array.from(vector, (x) => x / norm);
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}

function prepare(skills: readonly Skill[], index: SkillIndexCache, everydayWords: boolean): Prepared {
  const { lexical, rules, diagnostics, references } = index.build(skills);
  // A prebuilt shelf's layout comes with the references its build computed for it.
  const stored = references?.everydayWords === everydayWords ? references : undefined;
  const anchored = new Map<string, Anchored>();
  const unanchored: number[] = [];
  const at = (key: string): Anchored => {
    let entry = anchored.get(key);
    if (!entry) {
      entry = { triggers: [], names: [] };
      anchored.set(key, entry);
    }
    return entry;
  };
  rules.forEach(({ triggers, name }, s) => {
    triggers.forEach((trigger, t) => {
      if (trigger.anchor === undefined) unanchored.push(s, t);
      else at(trigger.anchor).triggers.push(s, t);
    });
    if (name?.anchor !== undefined) at(name.anchor).names.push(s);
  });
  return {
    skills,
    lexical,
    rules,
    anchored,
    unanchored,
    diagnostics,
    hidden: Uint8Array.from(skills, (skill) => (skill.disableModelInvocation || skill.role ? 1 : 0)),
    exampled: Uint8Array.from(skills, (skill) => (skill.examples.length > 0 ? 1 : 0)),
    unexampled: skills.reduce((n, skill) => (skill.examples.length > 0 ? n : n + 1), 0),
    exampleReference: stored?.examples,
    skillReference: stored?.skills,
    busy: false,
    ...scratch(skills.length, lexical.exampleCount),
  };
}

type Scratch = Pick<
  Prepared,
  | "lexScore"
  | "lexMask"
  | "lexCover"
  | "lexTop"
  | "lexStrong"
  | "exScore"
  | "exTouched"
  | "bestExample"
  | "inPool"
  | "pool"
  | "passIndex"
  | "passScore"
  | "passLex"
  | "passFamiliar"
>;

/** Zeroed working arrays for `skills` skills holding `examples` examples. */
function scratch(skills: number, examples: number): Scratch {
  return {
    lexScore: new Float64Array(skills),
    lexMask: new Int32Array(skills),
    lexCover: new Float64Array(skills),
    lexTop: new Float64Array(skills),
    lexStrong: new Int32Array(skills),
    exScore: new Float64Array(examples),
    exTouched: new Int32Array(examples),
    bestExample: new BestExamples(skills),
    inPool: new Uint8Array(skills),
    pool: new Int32Array(skills),
    passIndex: new Int32Array(skills),
    passScore: new Float64Array(skills),
    passLex: new Float64Array(skills),
    passFamiliar: new Float64Array(skills),
  };
}

/**
 * A known term's everyday informativeness, kept by its id: a message's known words are looked
 * up in the index anyway, and the everyday list's lookup (its group, a map, a logarithm) was
 * a visible part of every message's cost.
 */
function everydayOfTerm(p: Prepared, id: number, term: string, tuning: MatchTuning): number {
  let byId = p.everydayById;
  if (!byId) {
    byId = new Float64Array(p.lexical.termCount).fill(Number.NaN);
    p.everydayById = byId;
  }
  let value = byId[id] as number;
  if (Number.isNaN(value)) {
    value = everyday(term, tuning);
    byId[id] = value;
  }
  return value;
}

/** Per-message working state, so the explanation step can look back at what was found. */
interface Found {
  analysis: ReturnType<typeof analyze>;
  input: TriggerInput;
  queryWords: string[];
  triggerHits: Map<number, { trigger: string; matched: string }>;
  nameHits: Map<number, string>;
  bestExample: BestExamples;
}

function score(
  p: Prepared,
  message: string,
  call: MatchCallOptions,
  tuning: MatchTuning,
  semantic: Float64Array | undefined,
): MatchResult {
  const { skills, lexical, lexScore, lexMask, lexCover, lexTop, lexStrong, exScore } = p;
  const includeHidden = call.includeHidden ?? false;
  const limit = call.limit ?? 5;
  const analysis = analyze(message);
  const input = triggerInput(analysis.canonical, analysis.normalized, analysis.canonicalWords);

  // The message's distinct known words (unknown words cannot match anything); each word's
  // informativeness is the lesser of the shelf's and everyday language's (coverage.ts), and
  // the everyday informativeness of the known and the unknown words gives the known share.
  const queryIds: number[] = [];
  const queryWords: string[] = [];
  const queryInfo: number[] = [];
  // The message's known words that are evidence on their own (not generic): as mask bits (the
  // first MAX_MASK_TERMS of them), and how many.
  let strongWords = 0;
  let strongCount = 0;
  let unknownWords = 0;
  let knownWords = 0;
  let exampleQueryWeight = 0;
  const seenTerms = new Set<string>();
  analysis.terms.forEach((term, i) => {
    if (seenTerms.has(term)) return;
    seenTerms.add(term);
    const id = lexical.termIds.get(term);
    const word = analysis.words[i] as string;
    const known = knownTerm(lexical, id);
    const general = known ? everydayOfTerm(p, id, term, tuning) : everyday(term, tuning);
    if (!known) {
      exampleQueryWeight += lexical.exampleUnseenIdf;
      unknownWords += general;
      return;
    }
    knownWords += general;
    queryIds.push(id);
    const info = Math.min(informativeness(lexical, id), general);
    const weighed =
      tuning.requestVerbs && REQUEST_VERB_TERMS.has(term)
        ? Math.min(info, REQUEST_VERB_INFORMATIVENESS)
        : info;
    if (weighed >= tuning.genericWord) {
      strongCount++;
      if (queryIds.length <= MAX_MASK_TERMS) strongWords |= 1 << (queryIds.length - 1);
    }
    queryInfo.push(weighed);
    queryWords.push(word);
    exampleQueryWeight += lexical.exampleIdf[id] as number;
  });

  // Lexical: walk the postings into the per-skill accumulators (reset before returning).
  // A message of at most MAX_MASK_TERMS known words (nearly all) only sums the evidence and
  // marks the words: a skill's coverage follows from its mask, for the few skills that get as
  // far as needing it.
  const { pool } = p;
  const masked = queryIds.length <= MAX_MASK_TERMS;
  const lexicalCount = masked
    ? walkMasked(lexical, queryIds, lexScore, lexMask, pool)
    : walkAll(lexical, queryIds, queryInfo, tuning.genericWord, p);

  // Examples: the best (idf-weighted Dice) example per skill.
  const { bestExample, exTouched } = p;
  bestExample.clear(); // normally clear already: left over only by a message that threw
  if (lexical.exampleCount > 0 && exampleQueryWeight > 0) {
    let touchedExamples = 0;
    const { exampleStart, exampleList } = lexical;
    for (const id of queryIds) {
      const w = lexical.exampleIdf[id] as number;
      for (let i = exampleStart[id] as number, end = exampleStart[id + 1] as number; i < end; i++) {
        const e = exampleList[i] as number;
        if (exScore[e] === 0) exTouched[touchedExamples++] = e;
        exScore[e] = (exScore[e] as number) + w;
      }
    }
    for (let k = 0; k < touchedExamples; k++) {
      const e = exTouched[k] as number;
      const dice = Math.min(
        1,
        (2 * (exScore[e] as number)) / (exampleQueryWeight + (lexical.exampleWeight[e] as number)),
      );
      exScore[e] = 0;
      bestExample.offer(lexical.exampleOwner[e] as number, e, dice);
    }
  }

  // Triggers and name mentions: only those anchored on a word of the message, plus regexes.
  const triggerHits = new Map<number, { trigger: string; matched: string }>();
  const nameHits = new Map<number, string>();
  const tryTrigger = (s: number, t: number) => {
    if (triggerHits.has(s)) return;
    const trigger = p.rules[s]?.triggers[t];
    const matched = trigger?.test(input);
    if (trigger && matched !== undefined) triggerHits.set(s, { trigger: trigger.source, matched });
  };
  for (const key of input.keys) {
    const anchored = p.anchored.get(key);
    if (anchored === undefined) continue;
    const list = anchored.triggers;
    for (let i = 0; i < list.length; i += 2) tryTrigger(list[i] as number, list[i + 1] as number);
    for (const s of anchored.names) {
      const matched = p.rules[s]?.name?.test(input);
      if (matched !== undefined) nameHits.set(s, matched);
    }
  }
  for (let i = 0; i < p.unanchored.length; i += 2)
    tryTrigger(p.unanchored[i] as number, p.unanchored[i + 1] as number);

  // Score every skill some signal touched; keep those over the threshold (or triggered).
  // Typed arrays, no per-skill objects: at 10,000 skills thousands of skills are touched.
  const { inPool, passIndex, passScore, passLex, passFamiliar } = p;
  let poolSize = lexicalCount;
  const others = bestExample.size > 0 || triggerHits.size > 0 || nameHits.size > 0 || semantic !== undefined;
  if (others) {
    for (let i = 0; i < lexicalCount; i++) inPool[pool[i] as number] = 1;
    const addToPool = (s: number) => {
      if (inPool[s] === 0) {
        inPool[s] = 1;
        pool[poolSize++] = s;
      }
    };
    for (let k = 0; k < bestExample.size; k++) addToPool(bestExample.ownerAt(k));
    for (const s of triggerHits.keys()) addToPool(s);
    for (const s of nameHits.keys()) addToPool(s);
    if (semantic) for (let s = 0; s < skills.length; s++) if ((semantic[s] as number) > 0) addToPool(s);
  }
  const queryMass = queryInformativeMass(queryInfo, unknownWords, tuning);
  // Familiarity of the request for a skill with examples, and for one without.
  let familiarToExamples = 1;
  let familiarToSkills = 1;
  if (tuning.familiarity && knownWords + unknownWords > 0) {
    const share = knownWords / (knownWords + unknownWords);
    if (lexical.exampleCount > 0) {
      p.exampleReference ??= referenceKnownShare(lexical, tuning.everydayWords, everydayWeightsOf(p.skills));
      familiarToExamples = familiarity(share, p.exampleReference);
    }
    if (p.unexampled > 0) {
      p.skillReference ??= referenceFromSkills(lexical, tuning.everydayWords, everydayWeightsOf(p.skills));
      familiarToSkills = familiarity(share, p.skillReference);
    }
  }
  const found: Found = { analysis, input, queryWords, triggerHits, nameHits, bestExample };
  // A skill that matched one of the request's non-generic words while the request holds
  // another is weakly supported: the share of its evidence it keeps when the request is judged.
  const supportOf = (s: number): number => {
    if (strongCount < 2 || tuning.loneWordWeight >= 1) return 1;
    const lone = masked ? oneBit((lexMask[s] as number) & strongWords) : lexStrong[s] === 1;
    return lone ? tuning.loneWordWeight : 1;
  };
  const nearMisses = call.nearMisses ?? 0;
  const misses: Miss[] = [];
  // Most touched skills share a word or two of little weight with the message: when nothing
  // but their evidence could lift them and it cannot reach the threshold, they are not scored
  // (unless near-misses are asked for, which reports them).
  const weakBelow =
    nearMisses === 0 && semantic === undefined ? evidenceNeeded(tuning.minScore) : Number.NEGATIVE_INFINITY;
  let passing = 0;
  for (let i = 0; i < poolSize; i++) {
    const s = pool[i] as number;
    inPool[s] = 0;
    // Hidden from the model: `disable-model-invocation` skills, and role skills (sub-agent
    // instructions, started by delegation, never activated in the main conversation).
    if (p.hidden[s] === 1 && !includeHidden) continue;
    // Evidence: how much distinctive text the message shares with the skill, in units of one
    // fully saturated match of a word only one skill uses (the same scale for a shelf of 9
    // skills and of 10,000), squashed to 0‥1.
    const evidence = (lexScore[s] as number) / lexical.uniqueIdf;
    if (
      evidence < weakBelow &&
      !(others && (triggerHits.has(s) || nameHits.has(s) || nearCopy(s, found, tuning)))
    )
      continue;
    const mask = lexMask[s] as number;
    const lex = evidenceScore(evidence);
    // Only words common across the shelf's skills or in everyday language matched: overlap, not evidence.
    const generic = lex > 0 && (masked ? topOf(mask, queryInfo) : (lexTop[s] as number)) < tuning.genericWord;
    const trigger = triggerHits.size > 0 && triggerHits.has(s);
    const total = totalScore(s, generic ? 0 : lex, trigger, found, semantic, tuning);
    if (trigger || total >= tuning.minScore) {
      // Coverage and familiarity judge the request, not the skill (coverage.ts,
      // familiarity.ts): they do not rank the skills, they decide whether the request is for
      // the shelf at all — the request is when one candidate still reaches the threshold with
      // its evidence discounted by the share of the request it leaves unexplained, by the
      // request's familiarity and, when `loneWordWeight` is set, by weak support: one word of
      // the request matched while another telling word of it is not the skill's.
      const familiar = p.exampled[s] === 1 ? familiarToExamples : familiarToSkills;
      const support = supportOf(s);
      const judged = trigger
        ? total
        : totalScore(
            s,
            generic
              ? 0
              : coveredScore(
                  evidence * familiar * support,
                  masked ? coveredBy(mask, queryInfo) : (lexCover[s] as number),
                  queryMass,
                  tuning,
                ),
            trigger,
            found,
            semantic,
            tuning,
          );
      passIndex[passing] = s;
      passScore[passing] = round(total);
      passLex[passing] = lex;
      passFamiliar[passing] = round(judged);
      passing++;
    } else if (nearMisses > 0) {
      keepBest(misses, nearMisses, {
        index: s,
        score: round(generic ? lex : total),
        lex,
        familiar: 0,
        generic,
        unfamiliar: false,
        lone: false,
      });
    }
  }

  try {
    const { result, unfamiliar } = finish(p, passing, found, call.usage, tuning, limit, semantic);
    if (nearMisses > 0) {
      // The request was not for the shelf: what would have been its candidates are near-misses,
      // with the score left them once judged. The reason names the judgement that decided it:
      // the one that, lifted alone, would have made the skill a candidate — familiarity
      // (unfamiliar), or the lone word's weak support — not coverage, which decided it anyway.
      const admittedWith = (s: Scored, discount: number) => {
        const mask = lexMask[s.index] as number;
        const top = masked ? topOf(mask, queryInfo) : (lexTop[s.index] as number);
        if (triggerHits.has(s.index) || (s.lex > 0 && top < tuning.genericWord)) return false;
        const evidence = (lexScore[s.index] as number) / lexical.uniqueIdf;
        const cover = masked ? coveredBy(mask, queryInfo) : (lexCover[s.index] as number);
        const judged = totalScore(
          s.index,
          coveredScore(evidence * discount, cover, queryMass, tuning),
          false,
          found,
          semantic,
          tuning,
        );
        return judged >= tuning.minScore - TIE;
      };
      for (const s of unfamiliar) {
        const familiar = p.exampled[s.index] === 1 ? familiarToExamples : familiarToSkills;
        const support = supportOf(s.index);
        const unfamiliarDecided = familiar < 1 && admittedWith(s, support);
        const loneDecided = !unfamiliarDecided && support < 1 && admittedWith(s, familiar);
        keepBest(misses, nearMisses, {
          ...s,
          score: s.familiar,
          generic: false,
          unfamiliar: unfamiliarDecided,
          lone: loneDecided,
        });
      }
      result.rejected = misses.map((miss) => rejection(p, miss, found));
    }
    return result;
  } finally {
    // The accumulators are shared by every message: leave them clean even if a host's
    // usage store throws.
    clear(lexScore, pool, lexicalCount);
    bestExample.clear();
    clear(lexMask, pool, lexicalCount);
    if (!masked) {
      clear(lexCover, pool, lexicalCount);
      clear(lexTop, pool, lexicalCount);
      clear(lexStrong, pool, lexicalCount);
    }
  }
}

/**
 * The postings of a message's known words (at most MAX_MASK_TERMS) summed into `score`, each
 * word's bit set in `mask`; the skills touched are listed in `touched`, their count returned.
 */
function walkMasked(
  lexical: LexicalIndex,
  queryIds: readonly number[],
  score: Float64Array,
  mask: Int32Array,
  touched: Int32Array,
): number {
  const { postingStart, postingDocs, postingWeights } = lexical;
  let count = 0;
  for (let q = 0; q < queryIds.length; q++) {
    const id = queryIds[q] as number;
    const bit = 1 << q;
    for (let i = postingStart[id] as number, end = postingStart[id + 1] as number; i < end; i++) {
      const d = postingDocs[i] as number;
      const seen = mask[d] as number;
      if (seen === 0) touched[count++] = d;
      score[d] = (score[d] as number) + (postingWeights[i] as number);
      mask[d] = seen | bit;
    }
  }
  return count;
}

/**
 * {@link walkMasked} for a longer message: the words past the mask's bits are not marked, so
 * each skill's coverage and most informative word are summed as the postings are walked.
 */
function walkAll(
  lexical: LexicalIndex,
  queryIds: readonly number[],
  queryInfo: readonly number[],
  genericWord: number,
  p: Prepared,
): number {
  const { postingStart, postingDocs, postingWeights } = lexical;
  const { lexScore, lexMask, lexCover, lexTop, lexStrong, pool } = p;
  let count = 0;
  for (let q = 0; q < queryIds.length; q++) {
    const id = queryIds[q] as number;
    const bit = q < MAX_MASK_TERMS ? 1 << q : 0;
    const info = queryInfo[q] as number;
    for (let i = postingStart[id] as number, end = postingStart[id + 1] as number; i < end; i++) {
      const d = postingDocs[i] as number;
      if (lexScore[d] === 0 && lexMask[d] === 0) pool[count++] = d;
      lexScore[d] = (lexScore[d] as number) + (postingWeights[i] as number);
      lexMask[d] = (lexMask[d] as number) | bit;
      lexCover[d] = (lexCover[d] as number) + info;
      if (info > (lexTop[d] as number)) lexTop[d] = info;
      if (info >= genericWord) lexStrong[d] = (lexStrong[d] as number) + 1;
    }
  }
  return count;
}

/** Σ informativeness of the words in `mask`, in word order (the order the postings walk adds them). */
function coveredBy(mask: number, queryInfo: readonly number[]): number {
  let sum = 0;
  for (let q = 0, rest = mask; rest !== 0; q++, rest >>>= 1) if (rest & 1) sum += queryInfo[q] as number;
  return sum;
}

/** Exactly one bit of `bits` is set. */
function oneBit(bits: number): boolean {
  return bits !== 0 && (bits & (bits - 1)) === 0;
}

/** The most informative word in `mask` (0 for none). */
function topOf(mask: number, queryInfo: readonly number[]): number {
  let top = 0;
  for (let q = 0, rest = mask; rest !== 0; q++, rest >>>= 1)
    if (rest & 1 && (queryInfo[q] as number) > top) top = queryInfo[q] as number;
  return top;
}

/**
 * Evidence below this cannot score `minScore` on its own: a lexical score is
 * evidence / (1 + evidence) ({@link evidenceScore}), so this is where that reaches a hair
 * under `minScore` (the hair keeps float rounding on the safe side).
 */
function evidenceNeeded(minScore: number): number {
  const reachable = minScore - 1e-9;
  return reachable <= 0 ? Number.NEGATIVE_INFINITY : reachable / (1 - reachable);
}

/** Zero `values` at the first `count` positions of `at` (or all of it, when that is most of it). */
function clear(values: Float64Array | Int32Array, at: Int32Array, count: number): void {
  if (count * 4 > values.length) values.fill(0);
  else for (let i = 0; i < count; i++) values[at[i] as number] = 0;
}

interface Scored {
  index: number;
  score: number;
  lex: number;
  /** The score with the request's judgement applied: coverage and familiarity (coverage.ts, familiarity.ts). */
  familiar: number;
}

/**
 * A skill's score from its lexical score: the semantic signal blended in, and the floors of a
 * trigger hit, of its name in the message and of a near-copy of one of its examples.
 */
function totalScore(
  s: number,
  lex: number,
  trigger: boolean,
  found: Found,
  semantic: Float64Array | undefined,
  tuning: MatchTuning,
): number {
  let base = lex;
  if (semantic)
    base = (1 - tuning.semanticWeight) * base + tuning.semanticWeight * Math.max(0, semantic[s] as number);
  let total = base;
  if (trigger) total = Math.max(total, tuning.triggerFloor + (1 - tuning.triggerFloor) * base);
  // Naming the skill, or nearly repeating one of its examples, is as telling as a trigger.
  const { nameHits, bestExample } = found;
  if (nameHits.size > 0 || bestExample.size > 0) {
    if (nameHits.has(s) || nearCopy(s, found, tuning))
      total = Math.max(total, tuning.nameFloor + (1 - tuning.nameFloor) * base);
  }
  return total;
}

/** The message nearly repeats one of the skill's examples. */
function nearCopy(s: number, found: Found, tuning: MatchTuning): boolean {
  const { bestExample } = found;
  return bestExample.has(s) && bestExample.scoreOf(s) >= tuning.exampleMatch;
}

/** A skill some signal touched that is not a candidate. */
interface Miss extends Scored {
  generic: boolean;
  unfamiliar: boolean;
  /** The request was refused because its one word this skill matched had weak support. */
  lone: boolean;
}

/** Keep the `size` best misses in `list`, best first (a few; insertion is enough). */
function keepBest(list: Miss[], size: number, miss: Miss): void {
  let at = list.length;
  while (at > 0 && (list[at - 1] as Miss).score < miss.score) at--;
  if (at >= size) return;
  list.splice(at, 0, miss);
  if (list.length > size) list.pop();
}

function matchedWords(p: Prepared, s: number, found: Found): string[] {
  const mask = p.lexMask[s] as number;
  const words: string[] = [];
  found.queryWords.forEach((word, q) => {
    if (q < MAX_MASK_TERMS && mask & (1 << q)) words.push(word);
  });
  return words;
}

function rejection(p: Prepared, miss: Miss, found: Found): Rejected {
  return {
    name: (p.skills[miss.index] as Skill).name,
    score: miss.score,
    reason: miss.generic
      ? "generic-words"
      : miss.unfamiliar
        ? "unfamiliar-request"
        : miss.lone
          ? "lone-word"
          : "below-threshold",
    terms: matchedWords(p, miss.index, found),
  };
}

function vetoOf(exclusions: readonly CompiledTrigger[], input: TriggerInput) {
  for (const exclusion of exclusions) {
    if (exclusion.anchor !== undefined && !input.keys.has(exclusion.anchor)) continue;
    const matched = exclusion.test(input);
    if (matched !== undefined) return { exclusion: exclusion.source, matched };
  }
  return undefined;
}

function round(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}

/** How many of the best-scoring skills are ordered exactly; more only when vetoes and groups use them up. */
const SHORTLIST = 48;

/**
 * Order, veto, keep one per group, settle near-ties by priority, flag ambiguity, cut to
 * `limit`, and only then build the reasons (for the few candidates returned).
 */
function finish(
  p: Prepared,
  passing: number,
  found: Found,
  usage: UsageStore | undefined,
  tuning: MatchTuning,
  limit: number,
  semantic: Float64Array | undefined,
): { result: MatchResult; unfamiliar: Scored[] } {
  const { skills } = p;
  const { margin } = tuning;
  const recencyOf = new Map<number, number>();
  const usageRecency = (s: Scored) => {
    let r = recencyOf.get(s.index);
    if (r === undefined) {
      r = usage ? recency(usage.get((skills[s.index] as Skill).name), Number.NEGATIVE_INFINITY) : 0;
      recencyOf.set(s.index, r);
    }
    return r;
  };
  const usageBrokeTie = new Set<number>();
  const compare = (a: Scored, b: Scored) => {
    if (Math.abs(a.score - b.score) > TIE) return b.score - a.score;
    const sa = skills[a.index] as Skill;
    const sb = skills[b.index] as Skill;
    if (sa.priority !== sb.priority) return sb.priority - sa.priority;
    if (usage) {
      const ra = usageRecency(a);
      const rb = usageRecency(b);
      const ca = usage.get(sa.name)?.count ?? 0;
      const cb = usage.get(sb.name)?.count ?? 0;
      if (ra !== rb || ca !== cb) {
        usageBrokeTie.add(a.index).add(b.index);
        return ra !== rb ? rb - ra : cb - ca;
      }
    }
    return sa.name < sb.name ? -1 : sa.name > sb.name ? 1 : 0;
  };

  // A shortlist is enough almost always: the best SHORTLIST scores, exactly ordered.
  let ordered = shortlist(p, passing, SHORTLIST).sort(compare);
  let exhaustive = ordered.length === passing;

  // The request is for the shelf only if one candidate keeps the threshold with its coverage
  // and familiarity applied. That judges the request, so it must not hang on `limit`: while no
  // candidate kept admits it and a passing skill could, the walk goes on past the limit.
  // A trigger always admits it: the author said the message is for the skill.
  const { triggerHits } = found;
  const admitting = (s: number, familiar: number) =>
    familiar >= tuning.minScore - TIE || (triggerHits.size > 0 && triggerHits.has(s));
  const admits = (s: Scored) => admitting(s.index, s.familiar);
  let admissible = false;
  for (let i = 0; i < passing && !admissible; i++)
    admissible = admitting(p.passIndex[i] as number, p.passFamiliar[i] as number);
  let admitted = false;
  const vetoed: Vetoed[] = [];
  const groups = new Set<string>();
  const kept: Scored[] = [];
  for (let i = 0; i < ordered.length; i++) {
    const s = ordered[i] as Scored;
    const top = kept[0];
    if (kept.length >= limit && top && top.score - s.score > margin + TIE && (admitted || !admissible)) break;
    const skill = skills[s.index] as Skill;
    const veto = vetoOf(p.rules[s.index]?.exclusions ?? [], found.input);
    if (veto) {
      vetoed.push({ name: skill.name, exclusion: veto.exclusion, matched: veto.matched });
      continue;
    }
    // One per group: the best-ranked member stands for its group.
    if (skill.group !== undefined) {
      if (groups.has(skill.group)) continue;
      groups.add(skill.group);
    }
    kept.push(s);
    if (admits(s)) admitted = true;
    if (i === ordered.length - 1 && !exhaustive && (kept.length < limit || (admissible && !admitted))) {
      // The shortlist ran out (vetoes, groups, or no candidate admitting the request yet):
      // order everything and go on.
      ordered = shortlist(p, passing, passing).sort(compare);
      exhaustive = true;
    }
  }

  // Otherwise stage 1 abstains, and the candidates it had are misses.
  if (!admitted) return { result: { candidates: [], vetoed, ambiguous: false }, unfamiliar: kept };

  // Near-tie at the top: a higher priority settles it; equal priorities are ambiguous.
  let ambiguous = false;
  const top = kept[0];
  if (top) {
    const contenders = kept.filter((s) => top.score - s.score <= margin + TIE);
    if (contenders.length > 1) {
      const priorityOf = (s: Scored) => (skills[s.index] as Skill).priority;
      const best = Math.max(...contenders.map(priorityOf));
      const winners = contenders.filter((s) => priorityOf(s) === best);
      if (winners.length === 1 && winners[0] !== top) {
        const winner = winners[0] as Scored;
        kept.splice(kept.indexOf(winner), 1);
        kept.unshift(winner);
      }
      ambiguous = winners.length > 1;
    }
  }

  const candidates: Candidate[] = kept.slice(0, limit).map((s) => ({
    name: (skills[s.index] as Skill).name,
    score: s.score,
    reasons: explain(p, s, found, semantic, usage, usageBrokeTie.has(s.index)),
  }));
  return { result: { candidates, vetoed, ambiguous }, unfamiliar: [] };
}

/** The `size` highest scores (unordered; ties with the last one included), without sorting everything. */
function shortlist(p: Prepared, passing: number, size: number): Scored[] {
  const { passIndex, passScore, passLex, passFamiliar } = p;
  const at = (i: number): Scored => ({
    index: passIndex[i] as number,
    score: passScore[i] as number,
    lex: passLex[i] as number,
    familiar: passFamiliar[i] as number,
  });
  // A plain loop: `Array.from` of an array-like with a map function is V8's slow generic path.
  if (passing <= size) {
    const all: Scored[] = [];
    for (let i = 0; i < passing; i++) all.push(at(i));
    return all;
  }
  // The cut: the size-th best score, from a min-heap of the best `size` seen so far.
  const heap = new Float64Array(size);
  let n = 0;
  for (let i = 0; i < passing; i++) {
    const x = passScore[i] as number;
    if (n < size) {
      let j = n++;
      heap[j] = x;
      while (j > 0) {
        const parent = (j - 1) >> 1;
        if ((heap[parent] as number) <= (heap[j] as number)) break;
        [heap[parent], heap[j]] = [heap[j] as number, heap[parent] as number];
        j = parent;
      }
    } else if (x > (heap[0] as number)) {
      heap[0] = x;
      let j = 0;
      for (;;) {
        const l = 2 * j + 1;
        const r = l + 1;
        let m = j;
        if (l < size && (heap[l] as number) < (heap[m] as number)) m = l;
        if (r < size && (heap[r] as number) < (heap[m] as number)) m = r;
        if (m === j) break;
        [heap[m], heap[j]] = [heap[j] as number, heap[m] as number];
        j = m;
      }
    }
  }
  const cut = heap[0] as number;
  const out: Scored[] = [];
  for (let i = 0; i < passing; i++) if ((passScore[i] as number) >= cut - TIE) out.push(at(i));
  return out;
}

function explain(
  p: Prepared,
  s: Scored,
  found: Found,
  semantic: Float64Array | undefined,
  usage: UsageStore | undefined,
  usageDecided: boolean,
): MatchReason[] {
  const skill = p.skills[s.index] as Skill;
  const reasons: MatchReason[] = [];
  const hit = found.triggerHits.get(s.index);
  if (hit) reasons.push({ kind: "trigger", trigger: hit.trigger, matched: hit.matched });
  const name = found.nameHits.get(s.index);
  if (name !== undefined) reasons.push({ kind: "name", matched: name });
  const { bestExample } = found;
  if (bestExample.has(s.index) && bestExample.scoreOf(s.index) > 0) {
    reasons.push({
      kind: "example",
      example: skill.examples[p.lexical.exampleSlot[bestExample.exampleOf(s.index)] as number] ?? "",
      score: round(bestExample.scoreOf(s.index)),
    });
  }
  if (s.lex > 0)
    reasons.push({ kind: "lexical", terms: matchedWords(p, s.index, found), score: round(s.lex) });
  if (semantic && (semantic[s.index] as number) > 0)
    reasons.push({ kind: "semantic", score: round(semantic[s.index] as number) });
  if (usage && usageDecided) {
    const record = usage.get(skill.name);
    reasons.push({
      kind: "usage",
      count: record?.count ?? 0,
      ...(record?.lastUsed ? { lastUsed: record.lastUsed } : {}),
    });
  }
  return reasons;
}
