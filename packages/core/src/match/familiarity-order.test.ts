/**
 * Stage 1 must give a request the same answer whatever the process read before it: the
 * everyday lists are stemmed lazily, group by group, the vocabulary numbers terms in the order
 * it meets them, and the familiarity references are computed on first use. Each order below
 * runs in fresh module instances, as a new process would.
 */
import { describe, expect, it, vi } from "vitest";
import type { MatchResult } from "../types.js";

const REQUESTS = [
  "help me write a better intro for my blog post",
  "can i mix antifreeze with water",
  "why is this postgres query slow",
  "write a commit message for these changes",
  "tell me about the best passport photo booths near the volcano",
  "帮我润色这篇文章",
  "护照丢了怎么办",
  "happiness is a warm dying universe of onions",
  "write tests for the parser module and unit test the lexer",
  "what is the weather like in reykjavik tomorrow",
];

async function answers(order: readonly string[]): Promise<Map<string, MatchResult>> {
  vi.resetModules();
  const { createMatcher } = await import("./matcher.js");
  const { everydayShelf } = await import("./test-utils/everyday-shelf.js");
  const shelf = everydayShelf();
  const matcher = createMatcher();
  const out = new Map<string, MatchResult>();
  for (const request of order) out.set(request, matcher.match(shelf, request, { nearMisses: 5 }));
  return out;
}

function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const j = (s >>> 16) % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

describe("stage 1 is independent of what the process looked up before", () => {
  it("gives every request the same candidates, near-misses and scores in any order", async () => {
    const forward = await answers(REQUESTS);
    for (const order of [[...REQUESTS].reverse(), shuffled(REQUESTS, 7), shuffled(REQUESTS, 99)]) {
      const other = await answers(order);
      for (const request of REQUESTS) expect(other.get(request), request).toEqual(forward.get(request));
    }
    // Not vacuous: some requests are answered, and some are abstained on.
    const answered = [...forward.values()].filter((r) => r.candidates.length > 0).length;
    expect(answered).toBeGreaterThan(0);
    expect(answered).toBeLessThan(REQUESTS.length);
  });

  it("weighs every term of the everyday lists the same whichever terms were looked up first", async () => {
    vi.resetModules();
    const { readEverydayList, TermRanks } = await import("./everyday-words.js");
    const { stem } = await import("./tokenize.js");
    const words = readEverydayList("english");
    expect(words.length).toBeGreaterThan(9_000);
    const terms = [...new Set(words.flatMap((word) => [word, stem(word)]))];
    const ranksIn = (order: readonly string[]) => {
      const ranks = new TermRanks(words, "english");
      const out = new Map<string, number | undefined>();
      for (const term of order) out.set(term, ranks.rank(term));
      return out;
    };
    const sorted = ranksIn([...terms].sort());
    for (const order of [[...terms].reverse(), shuffled(terms, 3)]) {
      const other = ranksIn(order);
      for (const term of terms) expect(other.get(term), term).toBe(sorted.get(term));
    }
  });
});
