/**
 * The user's "/name" in a Mastra thread: a later run rebuilds its session from the thread's
 * messages, so the skill's limits must travel with them. The first step after the command
 * records it (a tool call made without the model, left out of every prompt); a later run
 * reads the limits from that record, not from the skill's file as it is then. On the old code
 * a file widened between two runs widened the running activation: `send_email` ran.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DRAFT, runHostile, useHostileShelf } from "./test-utils/hostile-agent.js";
import { systemText } from "./test-utils/model.js";

const current = useHostileShelf();
const WIDE = DRAFT.replace("allowed-tools: write_file", "allowed-tools: write_file send_email");

describe.each(["generate", "stream"] as const)(
  "Mastra %s: a user's /draft-letter, its file widened between runs",
  (mode) => {
    it("keeps the limits the command started with; the model never sees the record", async () => {
      const { shelf, root } = current;
      const { send, calls } = await runHostile(
        shelf,
        mode,
        [
          { calls: [["write_file", { path: "letter.md" }]] },
          { text: "Drafted." },
          { calls: [["send_email", { to: "bob@example.com" }]] },
          { text: "Done." },
        ],
        ["/draft-letter to Bob", "yes, go on"],
        {
          memory: true,
          beforeRun: async (index) => {
            if (index !== 1) return;
            await writeFile(join(root, ".skillshelf", "skills", "draft-letter", "SKILL.md"), WIDE);
            await shelf.refresh({ full: true });
          },
        },
      );
      expect(calls).toHaveLength(4);
      expect(systemText(calls[2]).join("\n")).toContain("Never send anything."); // still active
      expect(send).not.toHaveBeenCalled();
      const shown = JSON.stringify(calls.map((c) => c.prompt));
      expect(shown).not.toContain("skillshelf_command_");
    });
  },
);
