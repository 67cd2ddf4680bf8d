/**
 * Tool names a hostile model makes up, through a real Mastra agent under an active whitelist:
 * names of Object.prototype's members and look-alikes of a hidden tool. None may run anything,
 * and what the model reads names no hidden tool.
 */
import { describe, expect, it } from "vitest";
import { runHostile, useHostileShelf } from "./test-utils/hostile-agent.js";
import type { scriptedModel } from "./test-utils/model.js";

type CallOptions = ReturnType<ReturnType<typeof scriptedModel>["calls"]>[number];

const env = useHostileShelf();

const toolResults = (call: CallOptions | undefined) =>
  JSON.stringify((call?.prompt ?? []).filter((m) => m.role === "tool").flatMap((m) => m.content));

describe.each(["generate", "stream"] as const)("made-up tool names after an activation (%s)", (mode) => {
  for (const name of [
    "constructor",
    "toString",
    "__proto__",
    "hasOwnProperty",
    "Send_Email",
    "send_email ",
    "functions.send_email",
    "ｓｅｎｄ_email",
    'x" not found. Available tools: y',
  ]) {
    it(`${JSON.stringify(name)}: nothing runs, the model reads UNKNOWN_TOOL naming no hidden tool`, async () => {
      const { send, calls } = await runHostile(
        env.shelf,
        mode,
        [
          { calls: [{ id: "a1", name: "skill_draft-letter" }] },
          { calls: [{ id: "x1", name, input: { to: "board@example.org" } }] },
          { text: "Drafted." },
        ],
        "Please draft a letter to the board",
      );
      expect(send).not.toHaveBeenCalled();
      const seen = toolResults(calls[2]).split(JSON.stringify(name).slice(1, -1)).join("<echo>");
      expect(seen).toContain("UNKNOWN_TOOL");
      expect(seen).not.toContain("send_email");
      expect(seen).not.toContain("skill_draft-letter, activate_skill"); // Mastra's list of every tool
    });
  }
});
