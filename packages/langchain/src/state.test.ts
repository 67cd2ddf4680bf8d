/**
 * The tool names a state snapshot carries (for a thread resumed where no model call has run):
 * a checkpoint is a store a client may be able to write, so anything but a list of names is
 * not taken for one, and the session falls back to the agent's tools as this process knows them.
 */
import { describe, expect, it } from "vitest";
import { STATE_KEY, snapshot, storedTools } from "./state.js";

describe("storedTools", () => {
  it("reads the names a snapshot was written with", () => {
    const state = { [STATE_KEY]: snapshot({ active: [] }, ["read_file", "send_email"]) };
    expect(storedTools(state)).toEqual(["read_file", "send_email"]);
  });

  it.each([
    ["no snapshot", {}],
    ["a snapshot from before names were kept", { [STATE_KEY]: { active: [] } }],
    ["names that are not strings", { [STATE_KEY]: { active: [], tools: ["read_file", 7] } }],
    ["not a list", { [STATE_KEY]: { active: [], tools: "read_file" } }],
  ] as const)("%s: none (the agent's own are used)", (_, state) => {
    expect(storedTools(state as never)).toBeUndefined();
  });

  it("the snapshot keeps the session's state as it is, beside the names", () => {
    const state = { active: [{ name: "notes", by: "model" as const }], turn: { id: "t1" } };
    expect(snapshot(state as never, ["read_file"])).toEqual({ ...state, tools: ["read_file"] });
  });
});
