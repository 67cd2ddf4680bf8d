/**
 * Stage 1 reuses its per-shelf working arrays from message to message. Whatever a host's
 * usage store does while a match runs — throw, or match another message on the same shelf
 * from inside `get` — every later match must answer as a fresh matcher would.
 */
import { describe, expect, it } from "vitest";
import type { Skill } from "../types.js";
import type { UsageRecord, UsageStore } from "../usage/store.js";
import { createMatcher } from "./matcher.js";
import { everydayShelf } from "./test-utils/everyday-shelf.js";
import { testSkill } from "./test-utils/skill.js";

const REQUESTS = [
  "help me write a better intro for my blog post",
  "why is this postgres query slow",
  "write a commit message for these changes",
  "rotate the tls certificate on the staging cluster",
  "tell me about the best passport photo booths near the volcano",
  "帮我润色这篇文章",
  "please write an email to my landlord about the broken heater and ask for a date",
];

/** Two skills with the same text tie exactly, so stage 1 asks the usage store to order them. */
function tiedShelf(): Skill[] {
  const twin = (name: string) =>
    testSkill({
      name,
      description: "Rotate TLS certificates on a Kubernetes cluster.",
      examples: ["rotate the tls certificate on the staging cluster"],
    });
  return [...everydayShelf(), twin("cert-rotate-alpha"), twin("cert-rotate-gamma")];
}

function usageStore(get: (name: string) => UsageRecord | undefined): UsageStore {
  return { get, all: () => ({}), record: () => {}, seen: () => {} };
}

const plain = (skills: readonly Skill[], message: string) =>
  JSON.stringify(createMatcher().match(skills, message, { nearMisses: 5 }));

describe("stage 1's working state", () => {
  it("asks the usage store on this shelf (the probes below would test nothing otherwise)", () => {
    const shelf = tiedShelf();
    let asked = 0;
    const usage = usageStore(() => {
      asked++;
      return undefined;
    });
    createMatcher().match(shelf, "rotate the tls certificate on the staging cluster", { usage });
    expect(asked).toBeGreaterThan(0);
  });

  it("answers every later message as a fresh matcher after a usage store throws", () => {
    const shelf = tiedShelf();
    const matcher = createMatcher();
    const usage = usageStore(() => {
      throw new Error("store down");
    });
    for (const request of REQUESTS) {
      expect(() =>
        matcher.match(shelf, "rotate the tls certificate on the staging cluster", { usage }),
      ).toThrow("store down");
      expect(JSON.stringify(matcher.match(shelf, request, { nearMisses: 5 }))).toBe(plain(shelf, request));
    }
  });

  it("answers both messages as a fresh matcher when a usage store matches again from inside `get`", () => {
    const shelf = tiedShelf();
    const matcher = createMatcher();
    const message = "rotate the tls certificate on the staging cluster";
    const inner: string[] = [];
    let depth = 0;
    const usage = usageStore(() => {
      if (depth === 0) {
        depth++;
        try {
          inner.push(
            JSON.stringify(matcher.match(shelf, "why is this postgres query slow", { nearMisses: 5 })),
          );
        } finally {
          depth--;
        }
      }
      return undefined;
    });
    const outer = matcher.match(shelf, message, { usage, nearMisses: 5 });
    const reference = createMatcher().match(shelf, message, {
      usage: usageStore(() => undefined),
      nearMisses: 5,
    });
    expect(JSON.stringify(outer)).toBe(JSON.stringify(reference));
    expect(inner.length).toBeGreaterThan(0);
    for (const result of inner) expect(result).toBe(plain(shelf, "why is this postgres query slow"));
    for (const request of REQUESTS)
      expect(JSON.stringify(matcher.match(shelf, request, { nearMisses: 5 }))).toBe(plain(shelf, request));
  });

  it("answers as fresh matchers when one matcher serves two shelves in turn, and from inside each other's usage store", () => {
    const first = tiedShelf();
    const second = [...everydayShelf().slice(5), ...tiedShelf().slice(-2)];
    const matcher = createMatcher();
    const message = "rotate the tls certificate on the staging cluster";
    const usage = usageStore(() => {
      matcher.match(first, "write a commit message for these changes");
      return undefined;
    });
    for (const request of [message, ...REQUESTS]) {
      expect(JSON.stringify(matcher.match(second, request, { usage, nearMisses: 5 }))).toBe(
        JSON.stringify(
          createMatcher().match(second, request, { usage: usageStore(() => undefined), nearMisses: 5 }),
        ),
      );
      expect(JSON.stringify(matcher.match(first, request, { nearMisses: 5 }))).toBe(plain(first, request));
    }
  });

  it("answers as a fresh matcher when the host's embed function matches from inside", async () => {
    const shelf = tiedShelf();
    const vector = (text: string) => [text.length % 7, text.includes("tls") ? 1 : 0, 1];
    const matcher = createMatcher({
      embed: async (texts) => {
        matcher.match(shelf, "why is this postgres query slow");
        return texts.map(vector);
      },
    });
    const reference = createMatcher({ embed: async (texts) => texts.map(vector) });
    for (const request of REQUESTS) {
      expect(JSON.stringify(await matcher.matchAsync(shelf, request, { nearMisses: 5 }))).toBe(
        JSON.stringify(await reference.matchAsync(shelf, request, { nearMisses: 5 })),
      );
      expect(JSON.stringify(matcher.match(shelf, request, { nearMisses: 5 }))).toBe(plain(shelf, request));
    }
  });
});
