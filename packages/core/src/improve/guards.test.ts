import { describeWithSharedData } from "@skillshelf/test-utils";
import { expect, it } from "vitest";
import { estimateTokens } from "../catalog/tokens.js";
import { corpusSkill } from "../history/test-utils/corpus.js";
import { bloatFlags, checkMerge } from "./guards.js";

const COMMS = corpusSkill("anthropics--skills/skills/internal-comms/SKILL.md");
const DEBUGGING = corpusSkill("obra--superpowers/skills/systematic-debugging/SKILL.md");

const check = (after: string, changesDescription = false, before = COMMS, name = "internal-comms") =>
  checkMerge({ name, before, after, changesDescription });
const guardsOf = (result: ReturnType<typeof check>) => result.violations.map((v) => v.guard);

describeWithSharedData("checkMerge", () => {
  it("passes a small edit", () => {
    const result = check(COMMS.replace("- Incident reports\n", "- Incident reports\n- Postmortems\n"));
    expect(result).toMatchObject({ ok: true, violations: [] });
    expect(result.stats!.changedLines).toBe(1);
  });

  it("semantic drift: a changed description is refused unless the proposal says so", () => {
    const after = COMMS.replace("A set of resources to help me write", "Resources for writing");
    expect(guardsOf(check(after))).toEqual(["description"]);
    expect(check(after, true).ok).toBe(true);
  });

  it("refuses a rename", () => {
    expect(guardsOf(check(COMMS.replace("name: internal-comms", "name: comms")))).toEqual(["name"]);
  });

  it("refuses a merge that no longer parses", () => {
    const result = check("Here is the improved skill, I removed the frontmatter.\n");
    expect(result.violations).toMatchObject([{ guard: "parse" }]);
    expect(result.violations[0]!.message).toMatch(/line 1/);
  });

  it("refuses any change to permissions or the version", () => {
    const wider = COMMS.replace("license:", "allowed-tools: Bash Read\nlicense:");
    expect(guardsOf(check(wider))).toEqual(["permissions"]);
    expect(check(wider).violations[0]!.message).toMatch(/allowed-tools \(unset → \["Bash","Read"\]\)/);
    const hidden = COMMS.replace("license:", "disable-model-invocation: true\nlicense:");
    expect(guardsOf(check(hidden))).toEqual(["permissions"]);
    expect(guardsOf(check(COMMS.replace("license:", "version: 9.9.9\nlicense:")))).toEqual(["version"]);
  });

  it("refuses any change to routing: triggers, exclusions, priority, group, role, model", () => {
    const routed = COMMS.replace(
      "license:",
      "triggers: [weekly update]\nexclusions: [code review]\npriority: 1\nmodel: small\nlicense:",
    );
    const from = (after: string) => check(after, false, routed);
    expect(from(routed).ok).toBe(true);
    const catchAll = from(routed.replace("triggers: [weekly update]", 'triggers: [weekly update, "/.+/"]'));
    expect(guardsOf(catchAll)).toEqual(["routing"]);
    expect(catchAll.violations[0]!.message).toMatch(
      /triggers \(\["weekly update"\] → \["weekly update","\/\.\+\/"\]\)/,
    );
    expect(guardsOf(from(routed.replace("exclusions: [code review]\n", "")))).toEqual(["routing"]);
    expect(guardsOf(from(routed.replace("priority: 1", "priority: 100")))).toEqual(["routing"]);
    expect(guardsOf(from(routed.replace("model: small", "model: large")))).toEqual(["routing"]);
    expect(guardsOf(from(routed.replace("license:", "group: writing\nlicense:")))).toEqual(["routing"]);
    expect(guardsOf(check(COMMS.replace("license:", "triggers: [anything]\nlicense:")))).toEqual(["routing"]);
  });

  it("instruction bloat: growth beyond min(30 %, 400 tokens) is refused", () => {
    const tokens = estimateTokens(DEBUGGING.slice(DEBUGGING.indexOf("\n---", 4)));
    expect(tokens).toBeGreaterThan(1400); // so 400 tokens, not 30 %, is the limit here
    const rule = (i: number) => `- Rule ${i}: before any fix, write down the hypothesis you are testing.`;
    const grow = (n: number) =>
      DEBUGGING.replace(
        "## The Iron Law",
        `${Array.from({ length: n }, (_, i) => rule(i)).join("\n")}\n\n## The Iron Law`,
      );
    expect(check(grow(20), false, DEBUGGING, "systematic-debugging").ok).toBe(true);
    const big = check(grow(40), false, DEBUGGING, "systematic-debugging");
    expect(guardsOf(big)).toEqual(["growth"]);
    expect(big.stats!.allowedGrowthTokens).toBe(400);
  });

  it("instruction bloat on a small skill: 30 % of it, but at least one rule's worth", () => {
    const tiny = "---\nname: tiny\ndescription: A tiny skill.\n---\n\nSay hello.\n";
    expect(
      check(tiny.replace("Say hello.", "Say hello.\nThen ask how you can help today."), false, tiny, "tiny")
        .ok,
    ).toBe(true);
    const essay = `Say hello.\n${"Then explain at length what you can do for the user, with examples. ".repeat(6)}`;
    expect(guardsOf(check(tiny.replace("Say hello.", essay), false, tiny, "tiny"))).toEqual(["growth"]);
  });

  it("over-specialisation / rewrite: a large share of changed lines is refused", () => {
    const body = COMMS.slice(COMMS.indexOf("## When to use"));
    const rewritten = COMMS.replace(
      body,
      body.replace(/^- (.*)$/gm, "- Write $1 in the tone of the payments team"),
    );
    const result = check(rewritten);
    expect(guardsOf(result)).toEqual(["change-size"]);
    expect(result.stats!.changedShare).toBeGreaterThan(0.35);
  });
});

describeWithSharedData("bloatFlags", () => {
  it("flags growth in each of the last 3 accepted proposals", () => {
    expect(
      bloatFlags([
        { before: 100, after: 120 },
        { before: 120, after: 150 },
        { before: 150, after: 170 },
      ]),
    ).toEqual([expect.stringMatching(/^instruction bloat: .*\(100 → 170 tokens, \+70 %\)/)]);
  });
  it("does not flag a run with a consolidation in it, or too short a history", () => {
    expect(
      bloatFlags([
        { before: 100, after: 120 },
        { before: 120, after: 90 },
        { before: 90, after: 110 },
      ]),
    ).toEqual([]);
    expect(
      bloatFlags([
        { before: 100, after: 120 },
        { before: 120, after: 130 },
      ]),
    ).toEqual([]);
  });
});
