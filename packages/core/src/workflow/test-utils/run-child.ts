/**
 * A separate process running one workflow, for the SIGKILL fault test (spawn-runner.ts).
 *
 *   <stateDir> <skillDir> <effectsLog>   warm up, print "ready", then for a stdin line
 *                                        "<runId>" resume or start that run, print "done"
 *                                        when it returns. Every step's start is appended to
 *                                        <effectsLog> (O_APPEND) before it does anything.
 */
import { appendFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { parseSkill } from "../../parse/parse-skill.js";
import type { Skill } from "../../types.js";
import { createFileRunStore } from "../file-run-store.js";
import { runWorkflow } from "../runner.js";

const [stateDir, skillDir, effects] = process.argv.slice(2) as [string, string, string];
const file = join(skillDir, "SKILL.md");
const parsed = parseSkill(readFileSync(file), { path: file });
const skill: Skill = { ...parsed.skill!, scope: "project", file, dir: skillDir, locked: false };
const store = createFileRunStore(stateDir);

const work = async ({
  step,
  runId,
  inputs,
}: {
  step: { id: string };
  runId: string;
  inputs: Record<string, unknown>;
}) => {
  appendFileSync(effects, `start ${runId} ${step.id}\n`);
  await new Promise((resolve) => setTimeout(resolve, Math.random() * 6));
  return `${step.id} of ${runId} after ${Object.keys(inputs).join(",")}`;
};

// Warm up the code paths (a run in a scratch id), so the kill window is spent on real runs.
await runWorkflow({
  skill,
  params: { target: "x" },
  mode: "auto",
  functions: { work: async () => "w" },
  store,
  runId: `warmup_${process.pid}`,
});
console.log("ready");
for await (const line of createInterface({ input: process.stdin })) {
  const result = await runWorkflow({
    skill,
    params: { target: "t" },
    mode: "auto",
    functions: { work },
    store,
    runId: line.trim(),
  });
  console.log(`done ${result.status}`);
}
