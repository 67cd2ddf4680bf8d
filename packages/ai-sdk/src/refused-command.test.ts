/**
 * A "/name" the user typed that core refuses (a role, a typo) reaches the model as a note in
 * the system text, on every step of that turn, so it never carries on as if a skill were loaded.
 */

import { describeWithSharedData } from "@skillshelf/test-utils";
import { generateText, isStepCount, type ModelMessage } from "ai";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createSkills, type Skills } from "./index.js";
import { type Fixture, hostTools, skillFixture } from "./test-utils/fixtures.js";
import { scriptedModel, systemText } from "./test-utils/mock-model.js";

let fixture: Fixture;
let skills: Skills;
beforeEach(async () => {
  fixture = await skillFixture();
  skills = await createSkills({ shelf: fixture.shelf, onDiagnostic: () => {} });
});
afterEach(() => fixture.cleanup());

const ask = (text: string): ModelMessage[] => [{ role: "user", content: text }];

describeWithSharedData.each([
  ["/reviewer check src/auth.ts", "NOT_USER_INVOCABLE"],
  ["/batch-renam *.jpg x", "NOT_FOUND"],
])('a refused "%s"', (command, errorType) => {
  it("puts core's <skill_command_refused> note into the instructions of every step of the turn", async () => {
    const model = scriptedModel((_call, i) =>
      i === 0 ? { toolCalls: [{ name: "read_file", input: { path: "a" } }] } : { text: "ok" },
    );
    await generateText({
      model,
      messages: ask(command),
      stopWhen: isStepCount(3),
      ...skills.wrap({ messages: ask(command), tools: hostTools() }),
    });
    expect(model.calls).toHaveLength(2);
    for (const call of model.calls) {
      expect(systemText(call)).toContain(`<skill_command_refused command="${command.split(" ")[0]}`);
      expect(systemText(call)).toContain(`error_type="${errorType}"`);
    }
    expect(fixture.events.filter((e) => e.type === "activation-refused")).toHaveLength(1);
  });
});
