import fs from "node:fs";
import path from "node:path";
import { sharedData, skipWithoutSharedData } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";
import { analyze } from "./tokenize.js";
import {
  type CompiledTrigger,
  compileNamePhrase,
  compileTrigger,
  MAX_REGEX_INPUT,
  MAX_REGEX_PROGRAM,
  triggerInput,
} from "./triggers.js";

function compiled(source: string): CompiledTrigger {
  const result = compileTrigger(source);
  if (!result.ok) throw new Error(result.error);
  return result.trigger;
}

function test(source: string, message: string): string | undefined {
  const a = analyze(message);
  return compiled(source).test(triggerInput(a.canonical, a.normalized));
}

describe("plain phrases", () => {
  it("match whole words in order, stemmed, case- and width-blind", () => {
    expect(test("run tests", "please RUN THE TESTS")).toBeUndefined();
    expect(test("run tests", "running tests now")).toBe("run test");
    expect(test("run tests", "ｒｕｎ ｔｅｓｔｓ")).toBe("run test");
    expect(test("deploy", "deployment failed")).toBe("deploy");
  });

  it("never match inside a Latin word", () => {
    expect(test("art", "start the party")).toBeUndefined();
    expect(test("art", "some art please")).toBe("art");
  });

  it("match Chinese and Japanese anywhere in a run", () => {
    expect(test("公众号", "帮我写一篇公众号文章")).toBe("公众号");
    expect(test("天気", "東京の天気を教えて")).toBe("天気");
  });

  it("match mixed-language phrases", () => {
    expect(test("react组件", "用React组件写一个页面")).toBe("react 组件");
  });

  it("anchor on their longest Latin word, or a CJK character", () => {
    expect(compiled("run the tests").anchor).toBe("test");
    expect(compiled("写*文章").anchor).toBe("写");
  });
});

describe("`*` gaps", () => {
  it("allow a short gap between parts", () => {
    expect(test("写*文章", "帮我写一篇关于人工智能的文章")).toBe("写一篇关于人工智能的文章");
    expect(test("write * article", "write a short blog article")).toBe("write a short blog articl");
  });

  it("refuse a long gap", () => {
    expect(test("write * article", "write to me about whether you liked the last article")).toBeUndefined();
    expect(test("写*文章", "写代码然后再花很长很长很长很长时间去读一篇文章")).toBeUndefined();
  });

  it("try later occurrences when the first is too far", () => {
    expect(test("写*文章", "写了很多很多很多很多很多很多很多东西，再写一篇文章")).toBe("写一篇文章");
  });

  it("allow an empty gap", () => {
    expect(test("写*文章", "写文章")).toBe("写文章");
  });
});

describe("/regex/ escape hatch", () => {
  it("runs against the normalised message, case-blind", () => {
    expect(test("/v\\d+\\.\\d+/", "Release V2.3 today")).toBe("v2.3");
    expect(compiled("/deploy (to|on) prod/").kind).toBe("regex");
  });

  it("runs every accepted pattern on RE2, the classic ReDoS shapes included", () => {
    for (const shape of ["/(a+)+$/", "/(a*)*b/", "/(a|aa)+$/", "/(\\w+\\s?)*x/", "/.*a.*b.*c/"]) {
      expect(compiled(shape).engine, shape).toBe("re2");
    }
    expect(compiled("run tests").engine).toBe("words");
    expect(test("/(a|aa)+$/", `${"a".repeat(900)}`)).toBe("a".repeat(900));
  });

  it("refuses what needs backtracking: back-references and look-arounds", () => {
    for (const [bad, feature] of [
      ["/(a)\\1/", "back-reference"],
      ["/(?<x>a)\\k<x>/", "back-reference"],
      ["/deploy(?= prod)/", "lookahead"],
      ["/deploy(?! prod)/", "lookahead"],
      ["/(?<=to )prod/", "lookbehind"],
      ["/(?<!to )prod/", "lookbehind"],
    ] as const) {
      const result = compileTrigger(bad);
      expect(result.ok, bad).toBe(false);
      if (!result.ok) {
        expect(result.error).toContain(feature);
        expect(result.hint).toBeTruthy();
      }
    }
  });

  it("keeps JavaScript's meaning where RE2 spells it differently", () => {
    expect(test("/\\u0076\\d/", "release v2")).toBe("v2");
    expect(test("/\\u{1F680}/u", "ship it 🚀")).toBe("🚀");
    expect(test("/\\uD83D\\uDE80/", "ship it 🚀")).toBe("🚀");
    expect(test("/\\p{Script=Han}+/u", "写一篇文章 please")).toBe("写一篇文章");
    expect(test("/x[^]y/", "x-y")).toBe("x-y");
    expect(test("/x[]y/", "xy")).toBeUndefined();
    // RE2 would read [:digit:] as a POSIX class; JavaScript reads its characters.
    expect(test("/[[:digit:]x[y]/", "7")).toBeUndefined();
    expect(test("/[[:digit:]x[y]/", ":xy")).toBe(":xy");
    // `.` and the flags: s, m, u are accepted; the i flag is always on.
    expect(test("/DEPLOY.PROD/s", "deploy prod")).toBe("deploy prod");
    expect(test("/^deploy$/m", "Deploy")).toBe("deploy");
  });

  it("refuses syntax JavaScript does not read the same way, and RE2-only syntax", () => {
    for (const bad of [
      "/a{,3}/",
      "/\\Qa\\E/",
      "/(?P<x>a)/",
      "/\\x{41}/",
      "/\\cJ/",
      "/\\p{Script_Extensions=Han}/",
    ]) {
      const result = compileTrigger(bad);
      expect(result.ok, bad).toBe(false);
      if (!result.ok) expect(result.hint, bad).toBeTruthy();
    }
  });

  it("refuses a pattern whose program is too large, and one that matches the empty message", () => {
    const big = compileTrigger("/a{1,999}a{1,999}b/");
    expect(big.ok).toBe(false);
    if (!big.ok) expect(big.error).toMatch(`steps (max ${MAX_REGEX_PROGRAM})`);
    expect(compileTrigger("/x*/").ok).toBe(false);
    expect(compileTrigger("/(?:)/").ok).toBe(false);
    // An empty match somewhere in the message is no hit either.
    expect(test("/\\bx*/", "hello")).toBeUndefined();
  });

  it("refuses bad syntax, flags and long patterns with a hint", () => {
    const bad = compileTrigger("/(unclosed/");
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.hint).toBeTruthy();
    expect(compileTrigger("/x/g").ok).toBe(false);
    expect(compileTrigger(`/${"a".repeat(300)}/`).ok).toBe(false);
  });

  it("only ever sees the first MAX_REGEX_INPUT characters", () => {
    const long = `${"x ".repeat(MAX_REGEX_INPUT)}needle`;
    expect(test("/needle/", long)).toBeUndefined();
    expect(test("/needle/", "a needle")).toBe("needle");
  });
});

describe("bad triggers", () => {
  it("reject empty and symbol-only triggers", () => {
    expect(compileTrigger("  ").ok).toBe(false);
    expect(compileTrigger("!!!").ok).toBe(false);
  });

  it("reject over-long phrases", () => {
    expect(compileTrigger("word ".repeat(60)).ok).toBe(false);
  });
});

describe("a skill's name as a phrase", () => {
  const ODD_NAMES = [
    "pdf-tools",
    "API Fuzzing for Bug Bounty",
    "03_task1",
    "FinanceTool",
    "写文章",
    "react组件-helper",
    "a*b",
    "*",
    "/changelog/",
    "/x",
    "  spaced  ",
    "!!!",
    "",
    "word-".repeat(60),
    `${"deploy".repeat(20)}ing`,
    "ＲＵＮ-ｔｅｓｔｓ",
  ];
  const messages = (name: string) => [
    `please use ${name} now`,
    `${name.replace(/[-_*]/gu, " ")} please`,
    "run the pdf tools on 写文章",
    name,
  ];

  /** compileNamePhrase(name) behaves as compileTrigger did on the name with each * read as a space. */
  function same(name: string): void {
    const result = compileTrigger(name.replace(/\*/gu, " "));
    const expected = result.ok ? result.trigger : undefined;
    const actual = compileNamePhrase(name);
    expect(actual === undefined).toBe(expected === undefined);
    if (!actual || !expected) return;
    expect([actual.source, actual.kind, actual.engine, actual.anchor]).toEqual([
      expected.source,
      expected.kind,
      expected.engine,
      expected.anchor,
    ]);
    for (const message of messages(name)) {
      const a = analyze(message);
      const input = triggerInput(a.canonical, a.normalized);
      expect(actual.test(input)).toBe(expected.test(input));
    }
  }

  it("is what compileTrigger makes of the name with each * read as a space", () => {
    for (const name of ODD_NAMES) same(name);
  });

  it("is the same for every folder name of the skills mirror", (ctx) => {
    skipWithoutSharedData(ctx);
    const mirror = sharedData("skills-mirror");
    let names = 0;
    for (const repo of fs.readdirSync(mirror, { withFileTypes: true })) {
      if (!repo.isDirectory()) continue;
      for (const name of fs.readdirSync(path.join(mirror, repo.name))) {
        same(name);
        names++;
      }
    }
    expect(names).toBeGreaterThan(10_000);
  });
});
