import { describe, expect, it } from "vitest";
import { createMatcher } from "./matcher.js";
import { REQUEST_VERB_TERMS } from "./request-verbs.js";
import { everydayShelf } from "./test-utils/everyday-shelf.js";
import { testSkill } from "./test-utils/skill.js";
import { analyze, stem } from "./tokenize.js";

const VERBS = ["help", "make", "write", "create"];

describe("the verbs a request is framed with never make a candidate alone (20 everyday skills)", () => {
  const shelf = everydayShelf();
  const matcher = createMatcher();

  it("offers the writing skill for a blog intro, not git-helper on 'help'", () => {
    const result = matcher.match(shelf, "help me write a better intro for my blog post", { nearMisses: 8 });
    expect(result.candidates.map((c) => c.name)).toEqual(["writing-coach"]);
    expect(result.rejected).toContainEqual(
      expect.objectContaining({ name: "git-helper", reason: "generic-words", terms: ["help"] }),
    );
  });

  it("offers nothing on 'write' or '写' alone", () => {
    expect(matcher.match(shelf, "How do I write a compelling headline?").candidates).toEqual([]);
    const chinese = matcher.match(shelf, "怎么写好一篇文章？有什么写作技巧", { nearMisses: 8 });
    expect(chinese.candidates.map((c) => c.name)).toEqual(["writing-coach"]);
    for (const name of ["write-tests", "commit-message", "email-draft", "sql-query"])
      expect(chinese.rejected).toContainEqual(
        expect.objectContaining({ name, reason: "generic-words", terms: ["写"] }),
      );
  });

  it("offers nothing for a request made only of framing verbs", () => {
    for (const message of [
      "help me",
      "can you help me make something",
      "帮我写一个",
      "write something for me",
    ])
      expect(matcher.match(shelf, message).candidates, message).toEqual([]);
  });

  it("still offers a skill the verbs frame a real request for", () => {
    const names = (message: string) => matcher.match(shelf, message).candidates.map((c) => c.name);
    expect(names("help me debug this stack trace")[0]).toBe("debug-error");
    expect(names("make a docker compose file for postgres")[0]).toBe("docker-compose");
    expect(names("帮我写一封邮件给客户")[0]).toBe("email-draft");
    expect(names("write unit tests for the date parser")[0]).toBe("write-tests");
  });

  it("is the tuning's to turn off", () => {
    const off = createMatcher({ requestVerbs: false });
    const names = off
      .match(shelf, "help me write a better intro for my blog post")
      .candidates.map((c) => c.name);
    expect(names).toContain("git-helper");
  });
});

describe("the same on 10,000 skills", () => {
  // A few skills use "help" in their own words, as on the small shelf; the rest are unrelated.
  const filler = (i: number) =>
    testSkill({ name: `topic-${i}`, description: `Reports about topic${i} and subject${i % 97}.` });
  const helpers = [
    testSkill({
      name: "git-helper",
      description: "Git help: undo commits, resolve merge conflicts, rebase.",
    }),
    testSkill({ name: "shell-help", description: "Help with bash and zsh scripts." }),
    testSkill({ name: "blog-writer", description: "Improve blog posts: intros, structure, tone." }),
  ];

  it("offers nothing on 'help' alone, and the blog skill for a blog intro", () => {
    const skills = [...helpers, ...Array.from({ length: 10_000 - helpers.length }, (_, i) => filler(i))];
    const matcher = createMatcher();
    const alone = matcher.match(skills, "can you help me", { nearMisses: 3 });
    expect(alone.candidates).toEqual([]);
    expect(alone.rejected?.[0]?.reason).toBe("generic-words");
    const intro = matcher.match(skills, "help me write a better intro for my blog post");
    expect(intro.candidates.map((c) => c.name)).toEqual(["blog-writer"]);
  }, 120_000);
});

describe("the request verbs are held as the index's terms", () => {
  it("holds each English verb as its stem and each Chinese verb as the segmenter splits it", () => {
    for (const verb of VERBS) expect(REQUEST_VERB_TERMS.has(stem(verb)), verb).toBe(true);
    expect(analyze("帮我写").terms).toEqual(expect.arrayContaining(["帮", "写"]));
    expect(REQUEST_VERB_TERMS.has(stem("writing"))).toBe(true);
  });
});
