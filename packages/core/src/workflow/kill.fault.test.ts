/**
 * A workflow runner process killed with SIGKILL at random points, many times over. After
 * every kill: the checkpoint parses and holds a prefix of the steps in order, with exactly
 * the outputs those steps produced (never torn); it never loses a step it had; and the next
 * process resumes the run without starting any step the checkpoint already had.
 *
 * SKILLSHELF_WORKFLOW_KILLS sets the number of kills (default 120, across 2 lanes that run
 * side by side). Each runner is started and warmed up while the previous one runs, and
 * told which run to resume just before the kill window.
 *
 * The kill window follows the machine: a fixed one (40 ms) saw no step start in most kills
 * on a loaded machine, so the checks that kills land inside runs and that runs resume mid-way
 * could fail. Each lane widens its window after a kill that came before any step started
 * and narrows it after one that let the run finish in one go, so kills keep landing between
 * steps at any speed.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isTempFileName } from "../history/atomic-write.js";
import { createFileRunStore } from "./file-run-store.js";
import type { WorkflowCheckpoint } from "./run-store.js";
import { type SkillFolder, writeWorkflowSkill } from "./test-utils/safe-refactor.js";
import { disposeRunnerBuild, spawnRunner } from "./test-utils/spawn-runner.js";

const KILLS = Number(process.env.SKILLSHELF_WORKFLOW_KILLS ?? 120);
const LANES = 2;
/** The kill window, in ms: where it starts, and how far it may move. */
const WINDOW = { start: 40, min: 10, max: 5_000 };
const STEPS = ["analyze", "plan", "execute", "verify"];
const SKILL = `---
name: safe-refactor-fault
description: Seed 004's four steps, each run by a host function, for the SIGKILL test.
arguments: [target]
steps:
  - { id: analyze, input: [target], output: analysis_report, run: work }
  - { id: plan, input: [analysis_report], output: refactor_plan, run: work }
  - { id: execute, input: [refactor_plan], output: changed_files, run: work }
  - { id: verify, input: [changed_files], output: verify_result, run: work }
---
Four steps.
`;
const PROMPTS = { "01-analyze": "a", "02-plan": "p", "03-execute": "e", "04-verify": "v" };
const INPUT_OF = ["target", "analysis_report", "refactor_plan", "changed_files"];

/** The lane's next window after a kill in which `started` steps started and the run did or did not finish. */
function nextKillWindow(window: number, started: number, finished: boolean): number {
  if (started === 0) return Math.min(WINDOW.max, window * 1.5);
  if (finished && started > 1) return Math.max(WINDOW.min, window / 1.5);
  return window;
}

const total = {
  kills: 0,
  runsFinished: 0,
  resumedMidRun: 0,
  stepsStarted: 0,
  tempFilesLeft: 0,
  killedBeforeFirstStep: 0,
};
const folders: SkillFolder[] = [];
afterAll(async () => {
  await Promise.all(folders.map((f) => f.cleanup()));
  await disposeRunnerBuild();
  console.info(`workflow SIGKILL fault test: ${JSON.stringify(total)}`);
});

/** Reads the checkpoint as the next process will, and checks it is whole and right. */
function inspect(stateDir: string, runId: string): WorkflowCheckpoint | undefined {
  const file = join(stateDir, "workflows", `${runId}.json`);
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, "utf8");
  const checkpoint = JSON.parse(text) as WorkflowCheckpoint; // a torn file throws here
  expect(checkpoint).toMatchObject({ format: 1, runId, skill: "safe-refactor-fault" });
  checkpoint.completed.forEach((step, i) => {
    expect(step.id, "completed steps are a prefix, in order").toBe(STEPS[i]);
    expect(step.value).toBe(`${STEPS[i]} of ${runId} after ${INPUT_OF[i]}`);
  });
  if (checkpoint.status === "done") expect(checkpoint.completed).toHaveLength(STEPS.length);
  return checkpoint;
}

function starts(effects: string): string[] {
  return existsSync(effects)
    ? readFileSync(effects, "utf8")
        .split("\n")
        .filter((l) => l.startsWith("start "))
    : [];
}

async function lane(index: number, kills: number): Promise<void> {
  const folder = await writeWorkflowSkill(SKILL, PROMPTS);
  folders.push(folder);
  const stateDir = join(folder.root, ".skillshelf");
  const effects = join(folder.root, "effects.log");
  let run = 0;
  let runId = `lane${index}_run${run}`;
  let known: string[] = [];
  let window = WINDOW.start;
  let missesAtWidest = 0; // kills in a row at the widest window with no step started

  let next = await spawnRunner(stateDir, folder.dir, effects);
  for (let i = 0; i < kills; i++) {
    const runner = next;
    expect(await runner.nextLine()).toBe("ready");
    const before = starts(effects).length;
    runner.child.stdin!.write(`${runId}\n`);
    if (i + 1 < kills) next = await spawnRunner(stateDir, folder.dir, effects);
    await new Promise((r) => setTimeout(r, Math.random() * window));
    runner.child.kill("SIGKILL");
    expect((await runner.exited).signal).toBe("SIGKILL");
    total.kills++;

    const started = starts(effects)
      .slice(before)
      .filter((l) => l.startsWith(`start ${runId} `))
      .map((l) => l.split(" ")[2]!);
    total.stepsStarted += started.length;
    if (started.length === 0) total.killedBeforeFirstStep++;
    for (const step of started) {
      expect(known, `step ${step} of ${runId} was started again after its checkpoint`).not.toContain(step);
    }
    const checkpoint = inspect(stateDir, runId);
    const now = checkpoint?.completed.map((c) => c.id) ?? [];
    expect(now.slice(0, known.length), "a checkpointed step is never lost").toEqual(known);
    if (known.length > 0 && now.length > known.length) total.resumedMidRun++;
    known = now;
    missesAtWidest = started.length > 0 ? 0 : window >= WINDOW.max ? missesAtWidest + 1 : 0;
    expect(
      missesAtWidest,
      `no step of ${runId} started within ${WINDOW.max} ms, 3 kills in a row: the runner runs no steps`,
    ).toBeLessThan(3);
    window = nextKillWindow(window, started.length, checkpoint?.status === "done");
    if (checkpoint?.status === "done") {
      total.runsFinished++;
      run++;
      runId = `lane${index}_run${run}`;
      known = [];
    }
  }
  const dir = join(stateDir, "workflows");
  total.tempFilesLeft += readdirSync(dir).filter((n) => isTempFileName(n)).length;

  // The last run, finished in this process: it ends done, with each step's output once.
  const { runWorkflow } = await import("./runner.js");
  const store = createFileRunStore(stateDir);
  const seen: string[] = [];
  const result = await runWorkflow({
    skill: folder.skill,
    params: { target: "t" },
    mode: "auto",
    store,
    runId,
    functions: {
      work: ({ step, inputs }) => {
        seen.push(step.id);
        return `${step.id} of ${runId} after ${Object.keys(inputs).join(",")}`;
      },
    },
  });
  expect(result.status).toBe("done");
  expect(seen).toEqual(STEPS.slice(known.length));
  expect(readdirSync(dir).filter((n) => isTempFileName(n, `${runId}.json`))).toEqual([]);
}

describe("SIGKILL at random points during workflow runs", () => {
  it(`always resumes from the last checkpoint, with no step repeated and no checkpoint torn, over ${KILLS} kills`, async () => {
    await Promise.all(
      Array.from({ length: LANES }, (_, i) =>
        lane(i, Math.floor(KILLS / LANES) + (i < KILLS % LANES ? 1 : 0)),
      ),
    );
    expect(total.kills).toBe(KILLS);
    // The kills must have landed inside runs, and runs must have resumed and finished.
    expect(total.stepsStarted).toBeGreaterThan(0);
    expect(total.resumedMidRun).toBeGreaterThan(0);
    expect(total.runsFinished).toBeGreaterThan(0);
  }, 300_000);
});
