import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Demo, openDemo, type ScriptRequest } from "./demo.js";
import type { DemoEvent } from "./events.js";
import { FRAMEWORKS } from "./runners/runner.js";
import { tell } from "./story.js";

type Of<T extends DemoEvent["type"]> = Extract<DemoEvent, { type: T }>;
const ofType = <T extends DemoEvent["type"]>(events: readonly DemoEvent[], type: T) =>
  events.filter((e): e is Of<T> => e.type === type);

const COUNT = { thread: "count", user: "Count the lines of the files in src." };

interface ScriptRun {
  demo: Demo;
  asked: ScriptRequest[];
  answer: string;
}

/** One count-lines request, with the approval answered `approve` by the test. */
async function countLines(framework: (typeof FRAMEWORKS)[number], approve: boolean): Promise<ScriptRun> {
  const asked: ScriptRequest[] = [];
  const demo = await openDemo({
    framework,
    approveScript: async (request) => {
      asked.push(request);
      return { approve, by: "test" };
    },
  });
  return { demo, asked, answer: await tell(demo, COUNT) };
}

describe.each(FRAMEWORKS)("count-lines' script on %s (offline model)", (framework) => {
  let approved: ScriptRun;
  let refused: ScriptRun;
  beforeAll(async () => {
    approved = await countLines(framework, true);
    refused = await countLines(framework, false);
  });
  afterAll(async () => {
    await approved?.demo.close();
    await refused?.demo.close();
  });

  it("asks before the run, naming the skill, the script and its arguments", () => {
    for (const run of [approved, refused]) {
      expect(run.asked).toEqual([
        expect.objectContaining({ skill: "count-lines", script: "scripts/count.sh", args: ["src"] }),
      ]);
      expect(ofType(run.demo.bus.events, "script-request")).toHaveLength(1);
    }
  });

  it("an approved run counts the sandbox's files and reports exit code and output", () => {
    expect(ofType(approved.demo.bus.events, "script-decided")).toEqual([
      expect.objectContaining({ approve: true, by: "test" }),
    ]);
    expect(approved.answer).toContain("exited with code 0");
    expect(approved.answer).toMatch(/15 src\/auth\.ts/);
    expect(approved.answer).toMatch(/32 total/);
  });

  it("a refused run does not happen, and the model says so", () => {
    expect(ofType(refused.demo.bus.events, "script-decided")).toEqual([
      expect.objectContaining({ approve: false, by: "test" }),
    ]);
    expect(refused.answer).toMatch(/declined to run scripts\/count\.sh/);
    expect(refused.answer).not.toMatch(/total/);
  });
});

describe("without an approver", () => {
  it("refuses every run (nobody to ask means no)", async () => {
    const demo = await openDemo({ framework: "ai-sdk" });
    try {
      const answer = await tell(demo, COUNT);
      expect(ofType(demo.bus.events, "script-decided")).toEqual([
        expect.objectContaining({ approve: false }),
      ]);
      expect(answer).toMatch(/declined/);
    } finally {
      await demo.close();
    }
  });
});
