import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { commandRecordMessage, withoutCommandRecords } from "./command-records.js";

/** A record's id: the part a model can work out, and the random part it cannot. */
const base = "skillshelf_command_1_0123abcd";
const id = `${base}_00112233aabbccdd`;
const user = new HumanMessage("/reader notes.md");
const record = commandRecordMessage({ id, name: "activate_skill", input: { name: "reader" } });
const recordResult = new ToolMessage({ content: "{}", tool_call_id: id, name: "activate_skill" });
/** The model's own call reusing the id (or its guessable part), and its result. */
const own = (callId: string) => [
  new AIMessage({
    content: "",
    tool_calls: [{ id: callId, name: "read_file", args: {}, type: "tool_call" }],
  }),
  new ToolMessage({ content: "{}", tool_call_id: callId, name: "read_file" }),
];

describe("withoutCommandRecords (LangChain messages)", () => {
  it("leaves the record and its result out", () => {
    expect(withoutCommandRecords([user, record, recordResult])).toEqual([user]);
  });

  it("keeps a call of the model's own that reuses the record's id, and its result", () => {
    for (const callId of [id, base]) {
      const mine = own(callId);
      expect(withoutCommandRecords([user, record, recordResult, ...mine])).toEqual([user, ...mine]);
    }
  });

  it("returns the same array when it holds no record", () => {
    const messages = [user, ...own("call_1")];
    expect(withoutCommandRecords(messages)).toBe(messages);
  });
});
