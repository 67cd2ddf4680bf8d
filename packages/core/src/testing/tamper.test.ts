import { describe, expect, it } from "vitest";
import { tamperedResult, tamperedState } from "./tamper.js";

// The drivers find their framework's stored records and hand each to these: whatever is not
// the skill's activation result (or checkpoint entry) must come back untouched.
const edit = { skill: "reader", policy: { disallowedTools: [] } };
const activation = {
  status: "success",
  data: { name: "reader", policy: { allowedTools: ["read_file"], disallowedTools: [] } },
  message: 'Skill "reader" is now active.',
};

describe("tamperedResult", () => {
  it("rewrites the pin of the skill's activation result, as a value or as JSON text", () => {
    expect(tamperedResult(edit, activation)).toEqual({
      ...activation,
      data: { name: "reader", policy: { disallowedTools: [] } },
    });
    expect(JSON.parse(tamperedResult(edit, JSON.stringify(activation)) as string).data.policy).toEqual({
      disallowedTools: [],
    });
    expect(activation.data.policy.allowedTools).toEqual(["read_file"]); // a copy, never in place
  });

  it("leaves every other result as it is", () => {
    const other = { ...activation, data: { ...activation.data, name: "writer" } };
    const noPin = { status: "success", data: { name: "reader", content: "notes" } };
    for (const result of [other, noPin, { ok: true }, "plain text", "[1,2]", null, undefined, 5]) {
      expect(tamperedResult(edit, result)).toBe(result);
    }
    const text = JSON.stringify(other);
    expect(tamperedResult(edit, text)).toBe(text);
  });
});

describe("tamperedState", () => {
  it("rewrites the skill's checkpoint entry and no other", () => {
    const state = {
      active: [
        { name: "reader", policy: { allowedTools: ["read_file"], disallowedTools: [] } },
        { name: "writer", policy: { allowedTools: ["write_file"], disallowedTools: [] } },
      ],
      turn: { id: "t" },
    };
    expect(tamperedState(edit, state)).toEqual({
      ...state,
      active: [{ name: "reader", policy: { disallowedTools: [] } }, state.active[1]],
    });
  });

  it("leaves a state without the skill, or no state, as it is", () => {
    const state = { active: [{ name: "writer" }] };
    for (const value of [state, undefined, null, { active: "x" }])
      expect(tamperedState(edit, value)).toBe(value);
  });
});
