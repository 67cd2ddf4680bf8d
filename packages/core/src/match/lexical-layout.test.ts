// A stored layout restored is the index a build makes, value for value: also in a vocabulary
// that has grown since the layout was made (the later terms are unknown to it).
import { describe, expect, it } from "vitest";
import { decodeLayout, encodeLayout } from "../load/prebuilt-layout.js";
import {
  buildLexicalIndex,
  DEFAULT_INDEX_TUNING,
  lexicalLayout,
  readSkillTerms,
  restoreLexicalIndex,
} from "./lexical-index.js";
import { testSkill as skill } from "./test-utils/skill.js";
import { Vocabulary } from "./vocabulary.js";

const skills = [
  skill({
    name: "pdf-tools",
    description: "Extract tables and text from PDF documents.",
    examples: ["pull the tables out of this pdf", "pdf to text"],
    body: "# PDF tools\nUse pdfplumber for tables.",
  }),
  skill({ name: "deploy-prod", description: "Deploy the application to production with the checklist." }),
  skill({
    name: "tokyo-weather",
    description: "東京の天気予報を調べる。Weather forecast.",
    examples: ["weather in tokyo tomorrow"],
  }),
];

describe("a stored layout", () => {
  it("restores to the index a build makes, in the vocabulary it was made in and in one grown since", () => {
    const vocabulary = new Vocabulary();
    const terms = skills.map((s) => readSkillTerms(s, vocabulary, DEFAULT_INDEX_TUNING));
    const built = buildLexicalIndex(terms, vocabulary, DEFAULT_INDEX_TUNING);
    const layout = lexicalLayout(built);
    expect(restoreLexicalIndex(layout, vocabulary)).toEqual(built);

    vocabulary.read("entirely unheard-of words arrive with the first message");
    expect(vocabulary.terms.length).toBeGreaterThan(built.termCount);
    const grown = restoreLexicalIndex(layout, vocabulary);
    expect(grown).toEqual(buildLexicalIndex(terms, vocabulary, DEFAULT_INDEX_TUNING));
    expect(grown.termCount).toBe(vocabulary.terms.length);
  });

  it("reads back from a prebuilt file's int32s as it was written, wherever in the section it starts", () => {
    const vocabulary = new Vocabulary();
    const terms = skills.map((s) => readSkillTerms(s, vocabulary, DEFAULT_INDEX_TUNING));
    const built = buildLexicalIndex(terms, vocabulary, DEFAULT_INDEX_TUNING);
    const listed = skills.map((s) => ({ name: s.name, hash: s.hash, examples: s.examples.length }));
    const shape = {
      postings: built.postingDocs.length,
      exampleCount: built.exampleCount,
      exampleIds: built.exampleList.length,
    };
    // A build starts the layout at an even position (its float64s need 8-byte alignment); a
    // section that is itself only 4-byte aligned (a view into a file's bytes) reads them by a copy.
    for (const [start, shift] of [
      [0, 0],
      [2, 0],
      [6, 4],
    ] as const) {
      const arrays = encodeLayout(built, start);
      const ints = new Int32Array(
        new ArrayBuffer(4 * (start + arrays.length) + shift),
        shift,
        start + arrays.length,
      );
      ints.set(arrays, start);
      const decoded = decodeLayout(
        { skills: [], builtins: [], at: start, ...shape },
        listed,
        built.termCount,
        ints,
      );
      expect(decoded).toEqual(lexicalLayout(built));
    }
  });
});
