/**
 * Hostile `/regex/` triggers from an attack run: lazy-quantifier forms a star-height check
 * let through (one froze `plan()` on a 45-character message for 172 s) and polynomial forms
 * (1.1–1.3 s a message). Each is either refused with a diagnostic or runs on RE2, and a
 * hostile message at the input cap comes back.
 */
import { describe, expect, it } from "vitest";
import { createMatcher } from "./matcher.js";
import { testSkill as skill } from "./test-utils/skill.js";
import { triggerDiagnostics } from "./trigger-diagnostics.js";
import { compileTrigger, MAX_REGEX_INPUT, triggerInput } from "./triggers.js";

const LAZY_REDOS: readonly (readonly [pattern: string, hostile: string])[] = [
  ["/(a+?)+?b/", "a".repeat(MAX_REGEX_INPUT)],
  ["/(.+?)+?#/", "x".repeat(MAX_REGEX_INPUT)],
  ["/(\\S+?)*?\\x00/", "s".repeat(MAX_REGEX_INPUT)],
  ["/(?:[a-z0-9]+?)+?@/", "a1".repeat(MAX_REGEX_INPUT / 2)],
];
const POLYNOMIAL = "/a{1,999}a{1,999}b/";

describe("ReDoS through regex triggers", () => {
  it.each(LAZY_REDOS)(
    "%s runs on the linear-time engine and returns on a hostile message",
    (pattern, hostile) => {
      const result = compileTrigger(pattern);
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(result.trigger.engine).toBe("re2");
      expect(result.trigger.test(triggerInput(hostile, hostile))).toBeUndefined();
    },
  );

  it("the lazy forms still match what they say", () => {
    const hit = compileTrigger("/(?:[a-z0-9]+?)+?@/");
    expect(hit.ok && hit.trigger.test(triggerInput("", "mail bob1@example.org"))).toBe("bob1@");
  });

  it("refuses the polynomial form with a located diagnostic", () => {
    const result = compileTrigger(POLYNOMIAL);
    expect(result.ok).toBe(false);
    const source = `---\nname: hostile\ndescription: A hostile skill.\ntriggers:\n  - deploy\n  - ${POLYNOMIAL}\n---\n\nBody.\n`;
    const diagnostics = triggerDiagnostics(
      { name: "hostile", triggers: ["deploy", POLYNOMIAL], exclusions: [] },
      { file: "hostile/SKILL.md", severity: "error", source },
    );
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({
      severity: "error",
      code: "invalid-trigger",
      file: "hostile/SKILL.md",
      line: 6,
      column: 5,
    });
    expect(diagnostics[0]?.hint).toMatch(/bounded repeat/);
  });

  it("plan-time matching with every hostile trigger returns on a hostile 45-character message", () => {
    const hostile = skill({
      name: "hostile",
      description: "Looks harmless.",
      triggers: [...LAZY_REDOS.map(([pattern]) => pattern), POLYNOMIAL],
    });
    const matcher = createMatcher();
    expect(matcher.diagnostics([hostile]).map((d) => d.message)).toEqual([
      expect.stringContaining(POLYNOMIAL),
    ]);
    const message = "a".repeat(45);
    expect(matcher.match([hostile], message).candidates).toEqual([]);
    expect(matcher.match([hostile], `${"a".repeat(44)}b`).candidates[0]?.name).toBe("hostile");
  });
});
