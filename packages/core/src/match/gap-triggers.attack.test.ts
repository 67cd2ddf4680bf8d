/**
 * A hostile skill's `*` gap triggers against the host's time. Each gap tried every occurrence
 * of the next part in its window, again for every way of reaching it: `a * a * a * a * a * a *
 * a * b` took 285 s on a message of 2,000 "a"s, on every plan. Each (part, position) is now
 * tried once per message, with the same matches as before.
 */
import { describe, expect, it } from "vitest";
import { parseSkill } from "../parse/parse-skill.js";
import { createMatcher } from "./matcher.js";
import { analyze } from "./tokenize.js";
import { compileTrigger, triggerInput } from "./triggers.js";

const inputOf = (message: string) => {
  const a = analyze(message);
  return triggerInput(a.canonical, a.normalized);
};

const hostile = [
  `${Array.from({ length: 8 }, () => "a").join(" * ")} b`,
  `${Array.from({ length: 7 }, () => "a a").join(" * ")} * b`,
  `${Array.from({ length: 8 }, () => "写").join("*")}文`,
];

describe("hostile gap triggers", () => {
  it("each returns on a long message that almost matches (the old search took minutes)", () => {
    const messages = ["a ".repeat(2_000), "写".repeat(2_000), "a 写 ".repeat(1_000)];
    for (const source of hostile) {
      const compiled = compileTrigger(source);
      expect(compiled.ok, source).toBe(true);
      if (!compiled.ok) continue;
      for (const message of messages) expect(compiled.trigger.test(inputOf(message))).toBeUndefined();
    }
  });

  it("and in a plan-time match, as triggers and as exclusions", () => {
    const list = (items: string[]) => items.map((t) => `  - ${JSON.stringify(t)}`).join("\n");
    const text = `---\nname: slow\ndescription: A hostile skill.\ntriggers:\n${list(hostile)}\nexclusions:\n${list(hostile)}\n---\nx\n`;
    const { skill } = parseSkill(text, { path: "/skills/slow/SKILL.md" });
    const result = createMatcher().match(
      [{ ...skill!, scope: "project", locked: false }],
      "a ".repeat(2_000),
    );
    expect(result.candidates.map((c) => c.name)).not.toContain("slow");
  });

  it("still match what they say, the gaps still short", () => {
    const compiled = compileTrigger("write * release * notes");
    expect(compiled.ok).toBe(true);
    if (!compiled.ok) return;
    const test = (message: string) => compiled.trigger.test(inputOf(message));
    expect(test("please write the release draft notes today")).toBe("write the releas draft note");
    expect(test("write a b c d e f release notes")).toBeUndefined();
    const cjk = compileTrigger("写*文章");
    expect(
      cjk.ok && cjk.trigger.test(inputOf("帮我写一篇很长很长很长很长很长很长的文章，再写一篇文章")),
    ).toBe("写一篇很长很长很长很长很长很长的文章");
  });
});
