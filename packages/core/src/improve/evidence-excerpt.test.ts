import { describe, expect, it } from "vitest";
import { evidenceExcerpt, MAX_EXCERPT_MESSAGE_CHARS, MAX_EXCERPT_MESSAGES } from "./evidence-excerpt.js";
import { TRANSCRIPT } from "./test-utils/scripted.js";

describe("evidenceExcerpt", () => {
  it("keeps the message holding a quote and the one before it, nothing else", () => {
    expect(evidenceExcerpt(TRANSCRIPT, ["too much  DETAIL."])).toEqual([TRANSCRIPT[1], TRANSCRIPT[2]]);
  });

  it("keeps nothing when no quote occurs", () => {
    expect(evidenceExcerpt(TRANSCRIPT, ["never said"])).toEqual([]);
  });

  it("cuts a long message around its quote and caps the count", () => {
    const long = `${"a".repeat(20_000)} the quote ${"b".repeat(20_000)}`;
    const many = Array.from({ length: 40 }, (_, i) => ({ role: "user", content: `turn ${i}: the quote` }));
    const [only] = evidenceExcerpt([{ role: "tool", content: long }], ["the quote"]);
    expect(only!.content).toContain("the quote");
    expect(only!.content.length).toBeLessThanOrEqual(MAX_EXCERPT_MESSAGE_CHARS + 4);
    expect(evidenceExcerpt(many, ["the quote"])).toHaveLength(MAX_EXCERPT_MESSAGES);
  });

  it("reads a plain-text run by paragraphs", () => {
    const text = "user: hello\n\nassistant: here it is\n\nuser: far too long";
    expect(evidenceExcerpt(text, ["far too long"]).map((m) => m.content)).toEqual([
      "assistant: here it is",
      "user: far too long",
    ]);
  });
});
