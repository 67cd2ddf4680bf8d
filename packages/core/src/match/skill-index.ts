/**
 * Stage 1's index of a skill list, rebuilt from per-skill entries that outlive it.
 *
 * A shelf hands the matcher a new skills array whenever something changes (a hot reload after
 * one SKILL.md was edited, a skill added or removed), and the loader keeps the same Skill
 * object for every file whose bytes did not change. So each skill's expensive part — its text
 * read into term ids, its triggers and exclusions compiled — is cached per Skill object
 * (a WeakMap: a removed skill's entry goes with it), and a rebuild reads only the skills it
 * has not seen, then recomputes what depends on the whole list (document frequencies, field
 * length norms, postings) in flat passes over typed arrays. (Skills are values, as everywhere
 * in core: an edit makes a new object; one changed in place would keep its old entry.)
 *
 * The entries hold term ids of the process's shared {@link Vocabulary}; when it is replaced
 * (it grew past its bound), the next build drops them and reads everything again.
 */
import type { Diagnostic, Skill } from "../types.js";
import {
  buildLexicalIndex,
  fieldLength,
  type IndexTuning,
  type LexicalIndex,
  readSkillTerms,
  type SkillTerms,
  skillTerm,
} from "./lexical-index.js";
import { canonicalForm } from "./tokenize.js";
import { type CompiledTrigger, compileNamePhrase, compileTrigger } from "./triggers.js";
import { sharedVocabulary, type Vocabulary } from "./vocabulary.js";

export interface SkillRules {
  triggers: readonly CompiledTrigger[];
  exclusions: readonly CompiledTrigger[];
  /** The name as a phrase, when it is distinctive enough to count as a mention. */
  name: CompiledTrigger | undefined;
}

/** What is kept per Skill object across rebuilds. */
interface SkillEntry {
  terms: SkillTerms;
  triggers: readonly CompiledTrigger[];
  exclusions: readonly CompiledTrigger[];
  /** The name compiled as a phrase (undefined when it has no words). */
  name: CompiledTrigger | undefined;
  diagnostics: readonly Diagnostic[];
}

// Most skills have no triggers, exclusions or trigger diagnostics: their entries share these.
const NO_TRIGGERS: readonly CompiledTrigger[] = Object.freeze([]);
const NO_DIAGNOSTICS: readonly Diagnostic[] = Object.freeze([]);

export interface SkillIndex {
  lexical: LexicalIndex;
  /** The familiarity references stored with the layout, when the index is a stored one (see {@link StoredIndexLayout}). */
  references?: StoredReferences;
  rules: SkillRules[];
  /** Triggers and exclusions that could not be compiled (`invalid-trigger`), in skill order. */
  diagnostics: Diagnostic[];
  /** Skills read for this build (new or changed), and skills whose cached entry was reused. */
  analysed: number;
  reused: number;
}

/** The familiarity references of a stored layout's list, read with or without the everyday weights. */
export interface StoredReferences {
  everydayWords: boolean;
  /** `referenceKnownShare` of the index (examples). */
  examples: number;
  /** `referenceFromSkills` of the index (skills' own texts). */
  skills: number;
}

/**
 * An index laid out ahead of time (by a prebuilt shelf) for one list of skills: used for a
 * list only when it is that list — the same names in the same order, each skill with the
 * content hash and the number of examples it had — in the vocabulary and under the tuning
 * it was laid out with. Any other list (a skill added, edited, disabled, a builtin role of
 * another core) is laid out as always.
 */
export interface StoredIndexLayout {
  vocabulary: Vocabulary;
  tuning: string;
  /** How many skills the list laid out has. */
  size: number;
  /**
   * Whether `skill` is the one laid out at position `at`, by its name, content hash and
   * example count: for a skill not seeded with the layout (a builtin, a skill read from its
   * file). A seeded skill says its position itself.
   */
  holds(skill: Skill, at: number): boolean;
  /** The index; undefined when the stored parts turn out unusable (then it is built). */
  index(vocabulary: Vocabulary): LexicalIndex | undefined;
  references?: StoredReferences;
}

/** A seeded skill's place in a stored layout's list. */
export interface LaidOutAt {
  layout: StoredIndexLayout;
  at: number;
}

/** Terms read ahead of time, by a prebuilt shelf: usable under the vocabulary and tuning they were read with. */
interface PreRead {
  terms: SkillTerms;
  vocabulary: Vocabulary;
  tuning: string;
  /** Phrase forms of the name's and the triggers' parts, read with the same analysis as the terms (see {@link phraseFormsOf}). */
  phrases: readonly string[] | undefined;
  /** The skill's place in the layout of the list it was built in. */
  place: LaidOutAt | undefined;
}
const preRead = new WeakMap<Skill, PreRead>();

/** The part of a tuning that decides how a skill's text reads into terms. */
export function termTuningKey(tuning: IndexTuning): string {
  const { k1, b, fields } = tuning;
  return JSON.stringify({ k1, b, fields });
}

/**
 * Hands a skill's terms, read ahead of time into `vocabulary` under a tuning of `tuningKey`,
 * to every index that later meets this Skill object: a matcher with the same tuning and
 * vocabulary uses them instead of reading the skill's text.
 */
export function seedSkillTerms(
  skill: Skill,
  terms: SkillTerms,
  vocabulary: Vocabulary,
  tuningKey: string,
  phrases?: readonly string[],
  place?: LaidOutAt,
): void {
  // Every field set, in one order: one shape for every entry.
  preRead.set(skill, { terms, vocabulary, tuning: tuningKey, phrases, place });
}

/**
 * The phrase form ({@link canonicalForm}) of every part of the skill's name, triggers and
 * exclusions that compiling them stems, as pairs: `[text, form, text, form, …]`. A prebuilt
 * shelf records them, so its first index build stems nothing of the skills.
 */
export function phraseFormsOf(skill: Skill): string[] {
  const pairs: string[] = [];
  const record = (part: string) => {
    const form = canonicalForm(part);
    if (formIn(pairs, part) === undefined) pairs.push(part, form);
    return form;
  };
  compileTrigger(nameTriggerSource(skill), record);
  for (const source of skill.triggers) compileTrigger(source, record);
  for (const source of skill.exclusions) compileTrigger(source, record);
  return pairs;
}

/**
 * The phrase form of a part, from stored pairs when they hold it. A few pairs are walked; many
 * (a skill with dozens of triggers, or a prebuilt file written to make every lookup slow) go
 * into a map first, so compiling a skill stays linear in what it holds.
 */
function storedPhraseForm(pairs: readonly string[]): (part: string) => string {
  if (pairs.length <= 32) return (part) => formIn(pairs, part) ?? canonicalForm(part);
  const forms = new Map<string, string>();
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    const text = pairs[i] as string;
    if (!forms.has(text)) forms.set(text, pairs[i + 1] as string);
  }
  return (part) => forms.get(part) ?? canonicalForm(part);
}

function formIn(pairs: readonly string[], part: string): string | undefined {
  for (let i = 0; i + 1 < pairs.length; i += 2) if (pairs[i] === part) return pairs[i + 1];
  return undefined;
}

/** The text a skill's name is compiled from as a phrase trigger. */
function nameTriggerSource(skill: Skill): string {
  return skill.name.replace(/\*/gu, " ");
}

export class SkillIndexCache {
  private readonly tuning: IndexTuning;
  private readonly tuningKey: string;
  private readonly maxWords: number | undefined;
  private vocabulary: Vocabulary;
  private entries = new WeakMap<Skill, SkillEntry>();

  /** `maxWords`: the shared vocabulary's bound (tests lower it). */
  constructor(tuning: IndexTuning, maxWords?: number) {
    this.tuning = tuning;
    this.tuningKey = termTuningKey(tuning);
    this.maxWords = maxWords;
    this.vocabulary = sharedVocabulary(maxWords);
  }

  build(skills: readonly Skill[]): SkillIndex {
    const vocabulary = sharedVocabulary(this.maxWords);
    if (vocabulary !== this.vocabulary) {
      // Cached term ids belong to the old vocabulary.
      this.vocabulary = vocabulary;
      this.entries = new WeakMap();
    }
    let analysed = 0;
    const entries = skills.map((skill) => {
      let entry = this.entries.get(skill);
      if (!entry) {
        entry = this.read(skill);
        this.entries.set(skill, entry);
        analysed++;
      }
      return entry;
    });
    const layout = this.storedLayout(skills);
    const stored = layout?.index(this.vocabulary);
    const lexical =
      stored ??
      buildLexicalIndex(
        entries.map((e) => e.terms),
        this.vocabulary,
        this.tuning,
      );

    return {
      lexical,
      ...(stored && layout?.references && { references: layout.references }),
      rules: entries.map((entry) => ({
        triggers: entry.triggers,
        exclusions: entry.exclusions,
        name: distinctiveName(entry, lexical),
      })),
      diagnostics: entries.flatMap((entry) => entry.diagnostics),
      analysed,
      reused: skills.length - analysed,
    };
  }

  /** The stored layout laid out for exactly `skills`, in this cache's vocabulary and tuning, if one is. */
  private storedLayout(skills: readonly Skill[]): StoredIndexLayout | undefined {
    // The layout is named by the first skill seeded with one (a builtin carries none).
    let layout: StoredIndexLayout | undefined;
    for (let i = 0; i < skills.length && layout === undefined; i++)
      layout = preRead.get(skills[i] as Skill)?.place?.layout;
    if (
      layout === undefined ||
      layout.size !== skills.length ||
      layout.vocabulary !== this.vocabulary ||
      layout.tuning !== this.tuningKey
    )
      return undefined;
    for (let at = 0; at < skills.length; at++) {
      const skill = skills[at] as Skill;
      const place = preRead.get(skill)?.place;
      if (place?.layout === layout ? place.at !== at : !layout.holds(skill, at)) return undefined;
    }
    return layout;
  }

  private read(skill: Skill): SkillEntry {
    const seeded = preRead.get(skill);
    const usable = seeded && seeded.vocabulary === this.vocabulary && seeded.tuning === this.tuningKey;
    const phrases = usable ? seeded.phrases : undefined;
    const phraseForm = phrases === undefined ? canonicalForm : storedPhraseForm(phrases);
    const diagnostics: Diagnostic[] = [];
    const compile = (
      list: readonly string[],
      field: "triggers" | "exclusions",
    ): readonly CompiledTrigger[] => {
      if (list.length === 0) return NO_TRIGGERS;
      const out: CompiledTrigger[] = [];
      for (const source of list) {
        const result = compileTrigger(source, phraseForm);
        if (result.ok) out.push(result.trigger);
        else
          diagnostics.push({
            severity: "warning",
            code: "invalid-trigger",
            message: `${skill.name}: ${field} entry ignored: ${result.error}`,
            file: skill.file,
            line: 1,
            hint: result.hint,
          });
      }
      return out;
    };
    const triggers = compile(skill.triggers, "triggers");
    const exclusions = compile(skill.exclusions, "exclusions");
    const name = compileNamePhrase(skill.name, phraseForm);
    return {
      terms: usable ? seeded.terms : readSkillTerms(skill, this.vocabulary, this.tuning),
      triggers,
      exclusions,
      name,
      diagnostics: diagnostics.length === 0 ? NO_DIAGNOSTICS : diagnostics,
    };
  }
}

/**
 * A name counts as mentioned when it is several words ("dotnet-api", "pdf-tools") or one
 * word no other skill uses ("calculator"): a one-word name like "search" or "now" is also
 * an everyday word, and would fire on every message that says it.
 */
function distinctiveName(entry: SkillEntry, lexical: LexicalIndex): CompiledTrigger | undefined {
  // The name field's terms (the index read the name as its first field).
  const { name, terms } = entry;
  const words = fieldLength(terms, 0);
  if (!name || words === 0) return undefined;
  if (words === 1) {
    const id = skillTerm(terms, 0);
    // Skills whose lexical score the word adds to (all that use it, unless a field weighs 0).
    const users = (lexical.postingStart[id + 1] as number) - (lexical.postingStart[id] as number);
    if (users > 1 || (lexical.terms[id] as string).length < 4) return undefined;
  }
  return name;
}
