import { describe, expect, it } from "vitest";
import { commandRecordBase, isCommandRecordId, newCommandRecordId } from "../session/command-record.js";
import { withoutCommandRecords } from "./command-records.js";

const base = commandRecordBase("1:0123abcd")!;
const id = newCommandRecordId(base);
const user = { role: "user", content: [{ type: "text", text: "/reader notes.md" }] };
const recordCall = {
  role: "assistant",
  content: [{ type: "tool-call", toolCallId: id, toolName: "activate_skill", input: {} }],
};
const recordResult = {
  role: "tool",
  content: [
    { type: "tool-result", toolCallId: id, toolName: "activate_skill", output: { type: "json", value: {} } },
  ],
};
/** The model's own call, reusing the id (or its guessable part), and its result. */
const own = (callId: string) => [
  {
    role: "assistant",
    content: [{ type: "tool-call", toolCallId: callId, toolName: "read_file", input: {} }],
  },
  {
    role: "tool",
    content: [
      { type: "tool-result", toolCallId: callId, toolName: "read_file", output: { type: "json", value: {} } },
    ],
  },
];

describe("withoutCommandRecords", () => {
  it("leaves the record's call and result out", () => {
    expect(withoutCommandRecords([user, recordCall, recordResult])).toEqual([user]);
  });

  it("keeps a call of the model's own that reuses the record's id, and its result", () => {
    for (const callId of [id, base]) {
      const prompt = [user, recordCall, recordResult, ...own(callId)];
      expect(withoutCommandRecords(prompt)).toEqual([user, ...own(callId)]);
    }
  });

  it("keeps a second activation with the record's id (only the first call is the record)", () => {
    const again = [recordCall, { ...recordResult }];
    expect(withoutCommandRecords([user, recordCall, recordResult, ...again])).toEqual([user, ...again]);
  });

  it("returns the same prompt when it holds no record", () => {
    const prompt = [user, ...own("call_1")];
    expect(withoutCommandRecords(prompt)).toBe(prompt);
  });
});

describe("record ids", () => {
  it("carry a random part the model cannot work out, and still read as records", () => {
    const a = newCommandRecordId(base);
    const b = newCommandRecordId(base);
    expect(a).not.toBe(b);
    expect(a.startsWith(`${base}_`)).toBe(true);
    expect(isCommandRecordId(a)).toBe(true);
    expect(isCommandRecordId(base)).toBe(true); // a record written before the random part
    expect(isCommandRecordId(`${base}_x`)).toBe(false);
  });
});
