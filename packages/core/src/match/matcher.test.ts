import { describe, expect, it } from "vitest";
import { createMemoryUsageStore } from "../usage/store.js";
import { withoutNegativeClauses } from "./lexical-index.js";
import { createMatcher, DEFAULT_TUNING } from "./matcher.js";
import { testSkill as skill } from "./test-utils/skill.js";

const writing = skill({
  name: "wechat-article",
  description: "Write a WeChat official-account article from a topic: research, outline, draft, polish.",
  triggers: ["写*文章", "公众号", "write * article"],
  exclusions: ["写作技巧", "writing tips"],
  examples: ["帮我写一篇公众号文章", "write an article about our launch"],
});
const tests = skill({
  name: "run-tests",
  description: "Run the project's unit tests with vitest and summarise failures.",
  triggers: ["run tests", "/\\bvitest\\b/"],
  examples: ["run the unit tests", "why are my tests failing"],
});
const deploy = skill({
  name: "deploy-prod",
  description: "Deploy the application to production with the release checklist.",
  triggers: ["deploy to production"],
  exclusions: ["staging"],
});
const rename = skill({
  name: "bulk-rename",
  description: "Rename many files at once following a naming convention.",
  triggers: ["rename files"],
  disableModelInvocation: true,
});
const weather = skill({
  name: "tokyo-weather",
  description: "東京の天気予報を調べる。Weather forecast for Tokyo.",
  triggers: ["天気"],
});
const shelf = [writing, tests, deploy, rename, weather];

describe("createMatcher().match", () => {
  const matcher = createMatcher();

  it("makes a trigger hit a candidate and says which trigger matched what", () => {
    const result = matcher.match(shelf, "Can you run tests for the parser?");
    expect(result.candidates[0]?.name).toBe("run-tests");
    expect(result.candidates[0]?.reasons).toContainEqual({
      kind: "trigger",
      trigger: "run tests",
      matched: "run test",
    });
    expect(result.candidates[0]?.score).toBeGreaterThanOrEqual(DEFAULT_TUNING.triggerFloor);
  });

  it("matches Chinese with a `*` gap", () => {
    const result = matcher.match(shelf, "帮我写一篇关于人工智能的文章");
    expect(result.candidates[0]?.name).toBe("wechat-article");
    expect(result.candidates[0]?.reasons[0]).toEqual({
      kind: "trigger",
      trigger: "写*文章",
      matched: "写一篇关于人工智能的文章",
    });
  });

  it("matches Japanese and full-width text", () => {
    expect(matcher.match(shelf, "明日の東京の天気は？").candidates[0]?.name).toBe("tokyo-weather");
    expect(matcher.match(shelf, "ＲＵＮ ＴＥＳＴＳ").candidates[0]?.name).toBe("run-tests");
  });

  it("matches mixed-language messages", () => {
    const result = matcher.match(shelf, "请 run tests 然后 deploy to production");
    expect(result.candidates.map((c) => c.name)).toEqual(
      expect.arrayContaining(["run-tests", "deploy-prod"]),
    );
  });

  it("runs /regex/ triggers", () => {
    const result = matcher.match(shelf, "is Vitest configured?");
    expect(result.candidates[0]?.reasons[0]).toMatchObject({
      kind: "trigger",
      trigger: "/\\bvitest\\b/",
      matched: "vitest",
    });
  });

  it("lets an exclusion veto a skill even when a trigger matched, and reports it", () => {
    const result = matcher.match(shelf, "有什么写作技巧能让公众号文章更好？");
    expect(result.candidates.map((c) => c.name)).not.toContain("wechat-article");
    expect(result.vetoed).toEqual([{ name: "wechat-article", exclusion: "写作技巧", matched: "写作技巧" }]);
    const staging = matcher.match(shelf, "deploy to production, no wait, staging");
    expect(staging.vetoed.map((v) => v.name)).toEqual(["deploy-prod"]);
  });

  it("never offers a disable-model-invocation skill, unless includeHidden", () => {
    expect(matcher.match(shelf, "rename files to kebab-case").candidates.map((c) => c.name)).not.toContain(
      "bulk-rename",
    );
    expect(
      matcher
        .match(shelf, "rename files to kebab-case", { includeHidden: true })
        .candidates.map((c) => c.name),
    ).toContain("bulk-rename");
  });

  it("never offers a role skill (sub-agent instructions), unless includeHidden", () => {
    const reviewer = skill({ name: "reviewer", description: "Review code changes for bugs.", role: true });
    expect(matcher.match([reviewer, tests], "review code changes for bugs").candidates).toEqual([]);
    expect(
      matcher.match([reviewer], "review code changes for bugs", { includeHidden: true }).candidates[0]?.name,
    ).toBe("reviewer");
  });

  it("returns no candidate for an unrelated message", () => {
    expect(matcher.match(shelf, "what is the capital of France?").candidates).toEqual([]);
    expect(matcher.match(shelf, "").candidates).toEqual([]);
  });

  it("explains lexical relevance with the message's words", () => {
    const result = matcher.match(shelf, "summarise the vitest failures in the unit tests");
    const lexical = result.candidates[0]?.reasons.find((r) => r.kind === "lexical");
    expect(lexical).toMatchObject({ kind: "lexical", terms: expect.arrayContaining(["failures", "unit"]) });
  });

  it("explains example matches with the example", () => {
    const result = matcher.match(shelf, "why are the tests failing again");
    const example = result.candidates[0]?.reasons.find((r) => r.kind === "example");
    expect(example).toMatchObject({ kind: "example", example: "why are my tests failing" });
  });

  it("recognises a distinctive name written in the message", () => {
    const result = matcher.match(shelf, "use deploy-prod for this");
    expect(result.candidates[0]?.name).toBe("deploy-prod");
    expect(result.candidates[0]?.reasons).toContainEqual({ kind: "name", matched: "deploy prod" });
  });

  it("honours limit", () => {
    const many = Array.from({ length: 8 }, (_, i) => skill({ name: `lint-${i}`, triggers: ["lint"] }));
    expect(matcher.match(many, "lint it").candidates).toHaveLength(5);
    expect(matcher.match(many, "lint it", { limit: 2 }).candidates).toHaveLength(2);
  });
});

describe("conflicts", () => {
  const matcher = createMatcher();
  const a = skill({ name: "fmt-one", description: "Format code", triggers: ["format code"] });
  const b = skill({ name: "fmt-two", description: "Format code", triggers: ["format code"] });

  it("flags equal-priority near-ties as ambiguous", () => {
    const result = matcher.match([a, b], "format code please");
    expect(result.candidates.map((c) => c.name)).toEqual(["fmt-one", "fmt-two"]);
    expect(result.ambiguous).toBe(true);
  });

  it("lets priority break a near-tie (no ambiguity then)", () => {
    const result = matcher.match([a, { ...b, priority: 5 }], "format code please");
    expect(result.candidates[0]?.name).toBe("fmt-two");
    expect(result.ambiguous).toBe(false);
  });

  it("keeps priority from overriding a clear winner", () => {
    const strong = skill({
      name: "strong",
      description: "Format code with prettier",
      triggers: ["format code"],
    });
    const weak = skill({ name: "weak", description: "prettier config files", priority: 10 });
    const result = matcher.match([strong, weak], "format code with prettier");
    expect(result.candidates[0]?.name).toBe("strong");
  });

  it("keeps one candidate per group", () => {
    const result = matcher.match(
      [
        { ...a, group: "formatter" },
        { ...b, group: "formatter" },
      ],
      "format code please",
    );
    expect(result.candidates.map((c) => c.name)).toEqual(["fmt-one"]);
    expect(result.ambiguous).toBe(false);
  });

  it("uses usage only to break exact ties, and says so", () => {
    const usage = createMemoryUsageStore({
      "fmt-two": { count: 3, lastUsed: "2026-01-02T00:00:00.000Z" },
    });
    const tied = matcher.match([a, b], "format code please", { usage });
    expect(tied.candidates.map((c) => c.name)).toEqual(["fmt-two", "fmt-one"]);
    expect(tied.candidates[0]?.reasons.at(-1)).toEqual({
      kind: "usage",
      count: 3,
      lastUsed: "2026-01-02T00:00:00.000Z",
    });

    // A better-scoring skill stays first however much the other was used.
    const better = skill({ name: "fmt-three", description: "Format code", triggers: ["format code please"] });
    const heavy = createMemoryUsageStore({ "fmt-one": { count: 999, lastUsed: new Date().toISOString() } });
    const ranked = createMatcher().match([a, better], "format code please and lint", { usage: heavy });
    const withoutUsage = createMatcher().match([a, better], "format code please and lint");
    expect(ranked.candidates.map((c) => c.name)).toEqual(withoutUsage.candidates.map((c) => c.name));
  });
});

describe("index cache and diagnostics", () => {
  it("rebuilds when the skills array changes identity", () => {
    const matcher = createMatcher();
    const first = [tests];
    expect(matcher.match(first, "deploy to production").candidates).toEqual([]);
    const second = [tests, deploy];
    expect(matcher.match(second, "deploy to production").candidates[0]?.name).toBe("deploy-prod");
  });

  it("reports invalid triggers as diagnostics and ignores them", () => {
    const bad = skill({ name: "bad", triggers: ["/(a)\\1/", "ok phrase"], exclusions: ["/[/"] });
    const matcher = createMatcher();
    const diagnostics = matcher.diagnostics([bad]);
    expect(diagnostics.map((d) => d.code)).toEqual(["invalid-trigger", "invalid-trigger"]);
    expect(diagnostics[0]).toMatchObject({ file: bad.file, severity: "warning" });
    expect(matcher.match([bad], "ok phrase").candidates[0]?.name).toBe("bad");
  });
});

describe("semantic scoring (optional embed)", () => {
  // A toy embedding: one dimension per topic word, enough to prove the plumbing.
  const topics = ["weather", "code", "money"];
  const embed = async (texts: string[]) =>
    texts.map((t) => topics.map((topic) => (t.toLowerCase().includes(topic) ? 1 : 0.01)));
  const money = skill({ name: "budget", description: "money planning" });
  const code = skill({ name: "reviewer", description: "code review" });

  it("adds a semantic reason and score in matchAsync", async () => {
    const matcher = createMatcher({ embed });
    const result = await matcher.matchAsync([money, code], "any money left?");
    expect(result.candidates[0]?.name).toBe("budget");
    expect(result.candidates[0]?.reasons).toContainEqual(expect.objectContaining({ kind: "semantic" }));
  });

  it("embeds each skill once", async () => {
    let calls = 0;
    const counting = async (texts: string[]) => {
      calls += texts.length;
      return embed(texts);
    };
    const matcher = createMatcher({ embed: counting });
    const skills = [money, code];
    await matcher.prepare(skills);
    await matcher.matchAsync(skills, "money");
    await matcher.matchAsync(skills, "code");
    expect(calls).toBe(2 + 2);
  });

  it("works synchronously with a precomputed message vector after prepare", async () => {
    const matcher = createMatcher({ embed });
    const skills = [money, code];
    await matcher.prepare(skills);
    const [vector] = await embed(["code"]);
    const result = matcher.match(skills, "code", { vector: vector as number[] });
    expect(result.candidates[0]?.name).toBe("reviewer");
  });

  it("without embed, matchAsync is match", async () => {
    const matcher = createMatcher();
    expect(await matcher.matchAsync(shelf, "run tests")).toEqual(matcher.match(shelf, "run tests"));
  });
});

describe("negative clauses in descriptions", () => {
  it("do not count as evidence for the skill", () => {
    const api = skill({
      name: "backend-api",
      description: "Builds HTTP APIs and data access. Do not use for UI rendering or CI/CD pipelines.",
    });
    const ui = skill({ name: "frontend", description: "Builds UI components and rendering logic." });
    const matcher = createMatcher({ minScore: 0 });
    const result = matcher.match([api, ui], "fix the UI rendering glitch");
    expect(result.candidates.map((c) => c.name)).toEqual(["frontend"]);
    expect(withoutNegativeClauses("Deploys apps. Not for staging; use stage-deploy. Fast.")).toBe(
      "Deploys apps.   use stage-deploy. Fast.",
    );
  });
});

describe("robustness", () => {
  it("stays correct after a usage store throws mid-match", () => {
    const matcher = createMatcher();
    const a = skill({ name: "fmt-one", description: "Format code", triggers: ["format code"] });
    const b = skill({ name: "fmt-two", description: "Format code", triggers: ["format code"] });
    const list = [a, b];
    const broken = {
      get: () => {
        throw new Error("store down");
      },
      all: () => ({}),
      record: () => {},
      seen: () => {},
    };
    expect(() => matcher.match(list, "format code please", { usage: broken })).toThrow("store down");
    expect(matcher.match(list, "format code please")).toEqual(
      createMatcher().match(list, "format code please"),
    );
  });
});
