/**
 * A ledger record's reason, a proposal's rationale or a workflow checkpoint's output may carry text a model or a
 * hostile skill chose; a NUL or a lone surrogate in it must be stored as U+FFFD (as events
 * are), not make PostgreSQL refuse the write and lose the decision or the run's progress.
 */
import type { WorkflowCheckpoint } from "@skillshelf/core";
import { describe, expect, it } from "vitest";
import { createPostgresStore } from "../src/index.js";
import { databaseUrl, freshSchema, proposalFor } from "./fixtures/project.js";

describe.skipIf(!databaseUrl)("unstorable text in ledger records and workflow checkpoints", () => {
  it("a ledger record keeps its decision, the NUL and the lone surrogate as U+FFFD", async () => {
    const store = await createPostgresStore({ connectionString: databaseUrl, schema: freshSchema() });
    await store.ledger.append({
      type: "rejected",
      skill: "notes\u0000writer",
      before: null,
      after: null,
      reason: "bad\u0000input \ud800",
    });
    const { records } = await store.ledger.read();
    expect(records).toMatchObject([
      { type: "rejected", skill: "notes\ufffdwriter", reason: "bad\ufffdinput \ufffd" },
    ]);
    await store.close();
  });

  it("a workflow checkpoint and its log line are saved with the NUL as U+FFFD", async () => {
    const store = await createPostgresStore({ connectionString: databaseUrl, schema: freshSchema() });
    const checkpoint = {
      format: 1,
      runId: "run_nul",
      skill: "release",
      status: "running",
      completed: [],
      outputs: { build_result: "ok\u0000hidden" },
    } as unknown as WorkflowCheckpoint;
    await store.workflows.save(checkpoint);
    await store.workflows.append({ run_id: "run_nul", type: "step_done", note: "a\u0000b" } as never);
    expect(await store.workflows.load("run_nul")).toMatchObject({
      outputs: { build_result: "ok\ufffdhidden" },
    });
    await store.close();
  });

  it("an improvement proposal is saved with the NUL as U+FFFD", async () => {
    const store = await createPostgresStore({ connectionString: databaseUrl, schema: freshSchema() });
    const proposal = { ...proposalFor("release-notes", "h"), rationale: "why\u0000not \udc00" };
    await store.proposals.save(proposal);
    expect((await store.proposals.load(proposal.id)).rationale).toBe("why\ufffdnot \ufffd");
    await store.close();
  });
});
