/**
 * The workflow runner's own cost per step, beside the executor it calls: a 20-step workflow
 * whose steps are host functions that return at once (so what is measured is the runner:
 * reading the step files, building each step's inputs, the timeout and retry frame, the
 * output checks, a registered verify check, the run log and a checkpoint after every step).
 * The baseline calls the same function 20 times directly. With the file store every
 * checkpoint is an atomic write with two fsyncs: that row is the durability's price, shown
 * apart from the runner's.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createFileRunStore, memoryRunStore, parseSkill, runWorkflow, type Skill } from "@skillshelf/core";
import { formatMs, measure } from "./lib.ts";

const STEPS = 20;

async function workflowSkill(dir: string): Promise<Skill> {
  const steps = Array.from({ length: STEPS }, (_, i) => {
    const input = i === 0 ? "target" : `out${i - 1}`;
    return `  - { id: s${i}, input: [${input}], output: out${i}, run: work, verify: ok }`;
  });
  const text = `---\nname: bench-flow\ndescription: ${STEPS} host-function steps for the runner bench.\narguments: [target]\nsteps:\n${steps.join("\n")}\n---\nbody\n`;
  await mkdir(path.join(dir, "steps"), { recursive: true });
  await writeFile(path.join(dir, "SKILL.md"), text);
  for (let i = 0; i < STEPS; i++) {
    await writeFile(path.join(dir, "steps", `${String(i + 1).padStart(2, "0")}-s${i}.md`), `Step ${i}.`);
  }
  const parsed = parseSkill(text, { path: path.join(dir, "SKILL.md") });
  if (!parsed.skill) throw new Error(JSON.stringify(parsed.diagnostics));
  return { ...parsed.skill, scope: "project", file: path.join(dir, "SKILL.md"), dir, locked: false };
}

export async function run(): Promise<void> {
  const root = await mkdtemp(path.join(os.tmpdir(), "skillshelf-bench-workflow-"));
  try {
    const skill = await workflowSkill(path.join(root, "skills", "bench-flow"));
    const work = ({ step }: { step: { id: string } }) => `${step.id} done`;
    const host = { functions: { work }, checks: { ok: () => true }, mode: "auto" as const };
    const fileStore = createFileRunStore(path.join(root, ".skillshelf"));
    let n = 0;
    const rows = await measure([
      [
        `${STEPS} executor calls, no runner (baseline)`,
        async () => {
          for (let i = 0; i < STEPS; i++) await work({ step: { id: `s${i}` } });
        },
      ],
      [
        `runWorkflow, ${STEPS} steps, memory store`,
        () => runWorkflow({ ...host, skill, params: { target: "t" }, store: memoryRunStore() }),
      ],
      [
        `runWorkflow, ${STEPS} steps, file store (atomic checkpoint per step)`,
        () =>
          runWorkflow({ ...host, skill, params: { target: "t" }, store: fileStore, runId: `bench_${n++}` }),
      ],
    ]);
    const [base, memory, file] = rows as [(typeof rows)[0], (typeof rows)[0], (typeof rows)[0]];
    console.log("| task | median | per step | samples |\n|---|---:|---:|---:|");
    for (const row of rows) {
      console.log(
        `| ${row.name} | ${formatMs(row.median)} | ${formatMs(row.median / STEPS)} | ${row.samples} |`,
      );
    }
    console.log(
      `\nRunner overhead per step beyond the executor: memory store ${formatMs((memory.median - base.median) / STEPS)}, file store ${formatMs((file.median - base.median) / STEPS)}.`,
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
