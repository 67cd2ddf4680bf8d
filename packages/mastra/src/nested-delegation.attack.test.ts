/**
 * A role agent run through Mastra's `agents: {…}` route (the orchestrator's
 * `agent-<role>` tool) that delegates again — a host delegation tool under a name core does
 * not exclude — must not hand its task to a role with tools it was not given: a read-only
 * auditor must not reach a writer's `write_file`. Code its tools call asks
 * `currentSession()` what it may use and must get the auditor's bound.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent } from "@mastra/core/agent";
import { createTool } from "@mastra/core/tools";
import { createShelf, type Shelf } from "@skillshelf/core";
import { currentSession } from "@skillshelf/core/adapter";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { createDelegateTool, createRoleAgents } from "./roles.js";
import { scriptedModel, toolNames } from "./test-utils/model.js";

const role = (name: string, tools: string) => `---
name: ${name}
description: The ${name} role.
role: true
allowed-tools: ${tools}
---
Do the ${name}'s job.
`;

let root: string;
let shelf: Shelf;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "skillshelf-mastra-nested-"));
  for (const [name, tools] of [
    ["auditor", "read_file handoff"],
    ["writer", "read_file write_file"],
  ] as const) {
    await mkdir(join(root, ".skillshelf", "skills", name), { recursive: true });
    await writeFile(join(root, ".skillshelf", "skills", name, "SKILL.md"), role(name, tools));
  }
  shelf = await createShelf({ root, userDirs: [], builtinRoles: false, events: false });
});
afterEach(async () => {
  await shelf.close();
  await rm(root, { recursive: true, force: true });
});

function fileTools() {
  const spy = (id: string) => vi.fn(async (input: unknown) => ({ tool: id, input }));
  const spies = { read_file: spy("read_file"), write_file: spy("write_file") };
  const tools = Object.fromEntries(
    Object.entries(spies).map(([id, execute]) => [
      id,
      createTool({ id, description: `The ${id} tool.`, inputSchema: z.object({}).passthrough(), execute }),
    ]),
  );
  return { tools, spies };
}

/** The orchestrator hands the task to `agent-auditor`, which calls `handoff` once. */
async function runAuditor(handoff: unknown, tools: Record<string, unknown>, handoffInput: unknown) {
  const auditorModel = scriptedModel([{ calls: [["handoff", handoffInput]] }, { text: "Audited." }]);
  const boss = scriptedModel([
    { calls: [["agent-auditor", { prompt: "Audit src/app.ts and fix it" }]] },
    { text: "Done." },
  ]);
  const lead = new Agent({
    id: "lead",
    name: "lead",
    instructions: "Help.",
    model: boss.model,
    agents: createRoleAgents(shelf, {
      model: auditorModel.model,
      tools: { ...tools, handoff },
      onDiagnostic: () => undefined,
    }),
  });
  await lead.generate("Audit and fix src/app.ts", { maxSteps: 3 });
  return auditorModel;
}

describe("a role agent from agents: {…} that delegates again", () => {
  it("hands work to a writer that gets no write_file", async () => {
    const { tools, spies } = fileTools();
    const writerModel = scriptedModel([
      { calls: [["write_file", { path: "src/app.ts", content: "x" }]] },
      { text: "Wrote it." },
    ]);
    const handoff = createDelegateTool(shelf, {
      model: writerModel.model,
      tools,
      onDiagnostic: () => undefined,
    });

    const auditorModel = await runAuditor(handoff, tools, { role: "writer", task: "write src/app.ts" });

    expect(toolNames(auditorModel.calls()[0])).toEqual(["handoff", "read_file"]);
    expect(toolNames(writerModel.calls()[0])).toEqual(["read_file"]);
    expect(spies.write_file).not.toHaveBeenCalled();
  });

  it("a host tool it calls sees only the auditor's tools as allowed", async () => {
    const { tools } = fileTools();
    let seen: readonly string[] | undefined;
    let writeAllowed: boolean | undefined;
    const handoff = createTool({
      id: "handoff",
      description: "Hand work on.",
      inputSchema: z.object({}).passthrough(),
      execute: async () => {
        seen = currentSession()?.allowedTools(["read_file", "write_file"]);
        writeAllowed = currentSession()?.guard({ name: "write_file", input: { path: "src/app.ts" } }).allowed;
        return { ok: true };
      },
    });

    await runAuditor(handoff, tools, {});

    expect(seen).toEqual(["read_file"]);
    expect(writeAllowed).toBe(false);
  });
});
