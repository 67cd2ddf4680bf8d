/**
 * What the host knows reaches core: the files the processor's `files` option reports gate
 * `paths` skills, and the memory thread is stamped on every skill event (and Mastra's run id,
 * when it hands processors one: agent.generate() at this version does not).
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent } from "@mastra/core/agent";
import { MockMemory } from "@mastra/core/memory";
import { createShelf, type Shelf, type SkillEvent } from "@skillshelf/core";
import { afterEach, describe, expect, it } from "vitest";
import { createSkills } from "./skills.js";
import { hostTools } from "./test-utils/fixtures.js";
import { scriptedModel, toolNames } from "./test-utils/model.js";

const SQL_FIX = `---
name: sql-fix
description: Fix a broken SQL query.
triggers: [fix the query]
paths: ["**/*.sql"]
---
Fix the SQL.
`;

let root: string;
let shelf: Shelf | undefined;
afterEach(async () => {
  await shelf?.close();
  shelf = undefined;
  await rm(root, { recursive: true, force: true });
});

async function project(events: SkillEvent[] | false = false): Promise<Shelf> {
  root = await mkdtemp(join(tmpdir(), "skillshelf-mastra-host-"));
  await mkdir(join(root, ".skillshelf", "skills", "sql-fix"), { recursive: true });
  await writeFile(join(root, ".skillshelf", "skills", "sql-fix", "SKILL.md"), SQL_FIX);
  shelf = await createShelf({
    root,
    userDirs: [],
    builtinRoles: false,
    events: events ? { emit: (e) => events.push(e) } : false,
  });
  return shelf;
}

describe("the Mastra processor's host context", () => {
  it("offers a paths skill for a file the host reports, not for another", async () => {
    for (const [files, offered] of [
      [["db/report.sql"], true],
      [["README.md"], false],
    ] as const) {
      const skills = createSkills({ shelf: await project(), files: () => files });
      const model = scriptedModel([{ text: "ok" }]);
      const agent = new Agent({
        id: "host",
        name: "host",
        instructions: "",
        model: model.model,
        tools: hostTools().tools,
        inputProcessors: [skills.processor],
      });
      await agent.generate("fix the query");
      expect(toolNames(model.calls()[0]).includes("skill_sql-fix")).toBe(offered);
      await shelf?.close();
      shelf = undefined;
      await rm(root, { recursive: true, force: true });
    }
  });

  it("stamps the memory thread on the events", async () => {
    const events: SkillEvent[] = [];
    const skills = createSkills({ shelf: await project(events) });
    const agent = new Agent({
      id: "host",
      name: "host",
      instructions: "",
      model: scriptedModel([{ text: "ok" }]).model,
      tools: hostTools().tools,
      inputProcessors: [skills.processor],
      memory: new MockMemory(),
    });
    await agent.generate("fix the query in db/report.sql", {
      memory: { thread: "thread-5", resource: "user-1" },
    });
    const candidates = events.find((e) => e.type === "candidates");
    expect(candidates).toMatchObject({ thread: "thread-5" });
  });
});
