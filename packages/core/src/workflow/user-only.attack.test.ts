/**
 * A user-only (`disable-model-invocation`) workflow runs only for the user's "/name": the
 * model is asked to start the run, and must not start it on other arguments than the user
 * typed (its steps run with the skill's whitelist on whatever module it is handed).
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createShelf, type Shelf } from "../shelf.js";
import type { WorkflowToolResult } from "../types.js";
import {
  SAFE_REFACTOR_MD,
  type SkillFolder,
  scriptedModel,
  writeWorkflowSkill,
} from "./test-utils/safe-refactor.js";

const USER_ONLY = SAFE_REFACTOR_MD.replace("\nversion:", "\ndisable-model-invocation: true\nversion:");

const folders: SkillFolder[] = [];
const shelves: Shelf[] = [];
afterEach(async () => {
  await Promise.all(shelves.splice(0).map((s) => s.close()));
  await Promise.all(folders.splice(0).map((f) => f.cleanup()));
});

async function userOnlyShelf() {
  const folder = await writeWorkflowSkill(USER_ONLY);
  folders.push(folder);
  const model = scriptedModel();
  const shelf = await createShelf({
    root: folder.root,
    projectDirs: [join(folder.root, "skills")],
    userDirs: [],
    events: false,
    generate: model.generate,
    workflows: { mode: "auto", checks: { "tests-pass": () => true } },
  });
  shelves.push(shelf);
  return { shelf, model };
}

describe("a user-only workflow started by the model for the user's /name", () => {
  it("runs on the user's arguments, not the model's", async () => {
    const { shelf } = await userOnlyShelf();
    const session = await shelf.openSession({ message: "/safe-refactor src/pay.ts" });
    session.plan();
    const call = { id: "c1", name: "skill_safe-refactor", input: { args: "src/auth.ts" } };
    session.respond([call]);
    const answer = (await session.answerSkillTool(call)) as WorkflowToolResult;
    expect(answer.status).toBe("success");
    if (answer.status !== "success") return;
    expect(answer.data.outputs.analysis_report).toBe("analyze output (from: src/pay.ts)");
  });

  it("without the user's /name: refused (checked fine)", async () => {
    const { shelf, model } = await userOnlyShelf();
    const session = await shelf.openSession({ message: "safe refactor src/pay.ts please" });
    session.plan();
    const call = { id: "c1", name: "activate_skill", input: { name: "safe-refactor", args: "src/pay.ts" } };
    session.respond([call]);
    expect(await session.answerSkillTool(call)).toMatchObject({
      status: "error",
      error_type: "MODEL_INVOCATION_DISABLED",
    });
    expect(model.seen).toHaveLength(0);
  });
});
