/**
 * Workflow runs on PostgreSQL: the checkpoint a run leaves is the one another instance
 * resumes from (no completed step run again), two instances given the same run never run a
 * step twice, and the run log is kept in order.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseSkill, runWorkflow, type Skill, type WorkflowCheckpoint } from "@skillshelf/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresStore, type PostgresStore } from "../src/index.js";
import { databaseUrl, freshSchema, tempDir } from "./fixtures/project.js";

const STEPS = ["analyze", "plan", "execute", "verify"];
const TEXT = `---
name: safe-refactor
description: Seed 004's four steps, run by a host function.
arguments: [target]
steps:
  - { id: analyze, input: [target], output: analysis_report, run: work }
  - { id: plan, input: [analysis_report], output: refactor_plan, run: work }
  - { id: execute, input: [refactor_plan], output: changed_files, run: work }
  - { id: verify, input: [changed_files], output: verify_result, run: work }
---
Four steps.
`;

describe.skipIf(!databaseUrl)("workflow runs on PostgreSQL", () => {
  let temp: Awaited<ReturnType<typeof tempDir>>;
  let skill: Skill;
  const stores: PostgresStore[] = [];
  beforeAll(async () => {
    temp = await tempDir();
    const dir = join(temp.dir, "skills", "safe-refactor");
    await mkdir(join(dir, "steps"), { recursive: true });
    await writeFile(join(dir, "SKILL.md"), TEXT);
    for (const [i, id] of STEPS.entries())
      await writeFile(join(dir, "steps", `0${i + 1}-${id}.md`), `Do ${id}.`);
    const parsed = parseSkill(TEXT, { path: join(dir, "SKILL.md") });
    skill = { ...parsed.skill!, scope: "project", file: join(dir, "SKILL.md"), dir, locked: false };
  });
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await temp?.cleanup();
  });
  const instance = async (schema: string) => {
    const store = await createPostgresStore({ connectionString: databaseUrl, schema });
    stores.push(store);
    return store;
  };
  const worker = (ran: string[], delay = 0) => ({
    work: async ({ step }: { step: { id: string } }) => {
      ran.push(step.id);
      if (delay > 0) await new Promise((r) => setTimeout(r, delay));
      return `${step.id} done`;
    },
  });

  it("another instance resumes a run after its last checkpointed step", async () => {
    const schema = freshSchema();
    const [a, b] = [await instance(schema), await instance(schema)];
    const ran: string[] = [];
    const first = await runWorkflow({
      skill,
      params: { target: "t" },
      mode: "auto",
      store: a.workflows,
      runId: "run_a",
      functions: worker(ran),
    });
    expect(first.status).toBe("done");
    // The state a crash after step 2 leaves: the same checkpoint with two steps done, still running.
    const done = (await a.workflows.load("run_a"))!;
    const crashed: WorkflowCheckpoint = {
      ...done,
      runId: "run_b",
      status: "running",
      completed: done.completed.slice(0, 2),
    };
    await a.workflows.save(crashed);
    const resumedRan: string[] = [];
    const resumed = await runWorkflow({
      skill,
      params: { target: "t" },
      mode: "auto",
      store: b.workflows,
      runId: "run_b",
      functions: worker(resumedRan),
    });
    expect(resumed).toMatchObject({ status: "done", outputs: { verify_result: "verify done" } });
    expect(resumedRan).toEqual(["execute", "verify"]);
    const log = await a.pool.query<{ type: string }>(
      `SELECT type FROM "${schema}".workflow_log WHERE run_id = 'run_b' ORDER BY seq`,
    );
    expect(log.rows.map((r) => r.type)).toEqual([
      "run_resume",
      "step_start",
      "step_done",
      "step_start",
      "step_done",
      "run_done",
    ]);
  });

  it("two instances started on the same run run each step once", async () => {
    const schema = freshSchema();
    const [a, b] = [await instance(schema), await instance(schema)];
    const ran: string[] = [];
    const [x, y] = await Promise.all(
      [a, b].map((store) =>
        runWorkflow({
          skill,
          params: { target: "t" },
          mode: "auto",
          store: store.workflows,
          runId: "run_shared",
          functions: worker(ran, 5),
        }),
      ),
    );
    expect(x?.status).toBe("done");
    expect(y?.status).toBe("done");
    expect(ran).toEqual(STEPS);
  });
});
