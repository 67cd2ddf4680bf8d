import { jsonSchema, type Tool, type ToolSet, tool } from "ai";
import { describe, expect, it } from "vitest";
import { withSkillToolsOnLookUp } from "./approved-skill-calls.js";

const make = (name: string): Tool =>
  tool({ description: name, inputSchema: jsonSchema({ type: "object" }), execute: async () => name });

describe("withSkillToolsOnLookUp", () => {
  it("registers a looked-up name the resolver knows, on every kind of look-up, once", () => {
    const asked: string[] = [];
    const late = make("skill_notes");
    const resolve = (name: string) => {
      asked.push(name);
      return name === "skill_notes" ? late : undefined;
    };
    for (const look of [
      (t: ToolSet) => t.skill_notes,
      (t: ToolSet) => ("skill_notes" in t ? t.skill_notes : undefined),
      (t: ToolSet) => (Object.hasOwn(t, "skill_notes") ? t.skill_notes : undefined),
    ]) {
      asked.length = 0;
      const tools = withSkillToolsOnLookUp({ read_file: make("read_file") }, resolve);
      expect(look(tools)).toBe(late);
      expect(Object.keys(tools)).toEqual(["read_file", "skill_notes"]);
      expect(tools.skill_notes).toBe(late);
      expect(asked).toEqual(["skill_notes"]);
    }
  });

  it("asks nothing for the names it holds, for symbols, or when a tool is assigned; a miss is asked once", () => {
    const asked: string[] = [];
    const tools = withSkillToolsOnLookUp({ read_file: make("read_file") }, (name) => {
      asked.push(name);
      return undefined;
    });
    expect(tools.read_file).toBeDefined();
    expect(tools[Symbol.iterator as unknown as string]).toBeUndefined();
    tools.skill_notes = make("skill_notes"); // what prepareStep does when a step offers it
    expect(tools.skill_notes).toBeDefined();
    expect(tools.then).toBeUndefined();
    expect("then" in tools).toBe(false);
    expect({ ...tools }).toEqual({ read_file: tools.read_file, skill_notes: tools.skill_notes });
    expect(asked).toEqual(["then"]);
  });
});
