import { describe, expect, it } from "vitest";
import type { MatchResult } from "../types.js";
import { evaluateRouting, parseRoutingCases } from "./evaluate.js";

describe("parseRoutingCases", () => {
  it("reads JSON Lines with expect names, lists and null", () => {
    const { cases, errors } = parseRoutingCases(
      [
        '{"message":"run tests","expect":"run-tests"}',
        "",
        '{"message":"hi","expect":null}',
        '{"prompt":"x","expected_skills":["a","b"]}',
      ].join("\n"),
    );
    expect(errors).toEqual([]);
    expect(cases).toEqual([
      { message: "run tests", expect: ["run-tests"], id: "line 1" },
      { message: "hi", expect: null, id: "line 3" },
      { message: "x", expect: ["a", "b"], id: "line 4" },
    ]);
  });

  it("accepts {query, should_trigger} with a default skill, and a JSON array", () => {
    const { cases } = parseRoutingCases(
      '[{"query":"deploy it","should_trigger":true},{"query":"what is CI","should_trigger":false}]',
      "deploy",
    );
    expect(cases).toEqual([
      { message: "deploy it", expect: ["deploy"], id: "line 1" },
      { message: "what is CI", expect: [], notExpect: "deploy", id: "line 2" },
    ]);
  });

  it("reads should_trigger:false without a skill as 'nothing applies'", () => {
    expect(parseRoutingCases('{"query":"hello","should_trigger":false}').cases[0]?.expect).toBeNull();
  });

  it("reports bad lines with their line number and keeps the good ones", () => {
    const { cases, errors } = parseRoutingCases(
      '{"message":"ok","expect":"a"}\n{nope\n{"expect":"a"}\n{"message":"m","expect":3}',
    );
    expect(cases).toHaveLength(1);
    expect(errors.map((e) => e.line)).toEqual([2, 3, 4]);
    expect(errors[1]?.message).toMatch(/message/);
  });
});

describe("evaluateRouting", () => {
  const answers: Record<string, string[]> = { a: ["x", "y"], b: ["z", "q", "y"], c: [], d: ["x"], e: ["w"] };
  const route = (m: string): MatchResult => ({
    candidates: (answers[m] ?? []).map((name) => ({ name, score: 1, reasons: [] })),
    vetoed: [],
    ambiguous: m === "a",
  });

  it("counts recall@k on positives, none-accuracy, not-triggered and confusions", () => {
    const report = evaluateRouting(
      [
        { message: "a", expect: ["x"] },
        { message: "b", expect: ["y"] },
        { message: "c", expect: null },
        { message: "d", expect: null },
        { message: "e", expect: [], notExpect: "x" },
      ],
      route,
    );
    expect(report).toMatchObject({
      cases: 5,
      positives: 2,
      recallAt1: 0.5,
      recallAt3: 1,
      recallAt5: 1,
      none: { cases: 2, correct: 1, accuracy: 0.5 },
      notTriggered: { cases: 1, correct: 1, accuracy: 1 },
      ambiguous: 1,
    });
    expect(report.confusions).toEqual([
      { expected: null, got: "x", count: 1 },
      { expected: "y", got: "z", count: 1 },
    ]);
    expect(report.misses).toEqual([]);
  });
});
