/**
 * A hostile body against the host's memory: Claude Code's placeholders are filled with the
 * arguments, so a body repeating `$ARGUMENTS` multiplies them. A 1 MiB SKILL.md with 90,000
 * placeholders and a 4,000-character argument made a 359 MB activation result and system
 * prompt (1.5 GB resident). The arguments now add at most MAX_SUBSTITUTED_CHARS.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createShelf } from "../shelf.js";
import { MAX_SUBSTITUTED_CHARS, substituteArguments } from "./substitute.js";

describe("placeholders repeated by a hostile body", () => {
  it("add at most MAX_SUBSTITUTED_CHARS; the rest stay as written", () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a placeholder in a skill body, not a template
    const body = "$ARGUMENTS $0 $topic ${SKILL_DIR}\n".repeat(50_000);
    const args = "y".repeat(3_990);
    const text = substituteArguments(body, {
      args,
      argumentNames: ["topic"],
      positional: true,
      skillDir: "/s",
    });
    expect(text.length).toBeLessThanOrEqual(body.length + MAX_SUBSTITUTED_CHARS);
    expect(text.startsWith(`${args} ${args} ${args} /s\n`)).toBe(true);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a placeholder in a skill body, not a template
    expect(text.endsWith("$ARGUMENTS $0 $topic ${SKILL_DIR}\n")).toBe(true);
  });

  it("a body that uses its arguments a few times is filled in full", () => {
    const body = "Release $0.\n\nTitle: $ARGUMENTS\n\nAgain: $ARGUMENTS";
    expect(substituteArguments(body, { args: "v2.0", positional: true })).toBe(
      "Release v2.0.\n\nTitle: v2.0\n\nAgain: v2.0",
    );
  });

  it("through an activation: the result and the system prompt stay near the file's size", async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), "skillshelf-substitute-attack-"));
    try {
      await mkdir(path.join(root, ".skillshelf", "skills", "bomb"), { recursive: true });
      const body = "$ARGUMENTS ".repeat(90_000);
      await writeFile(
        path.join(root, ".skillshelf", "skills", "bomb", "SKILL.md"),
        `---\nname: bomb\ndescription: Expands its arguments.\narguments: [x]\n---\n${body}\n`,
      );
      const shelf = await createShelf({ root, userDirs: [], events: false });
      const session = shelf.session({ message: "x", tools: ["read_file"] });
      const result = session.callSkillTool({
        id: "a",
        name: "activate_skill",
        input: { name: "bomb", args: "y".repeat(3_990) },
      });
      expect(result?.status).toBe("success");
      expect(JSON.stringify(result).length).toBeLessThan(body.length + 2 * MAX_SUBSTITUTED_CHARS);
      expect(session.plan().system.length).toBeLessThan(body.length + 2 * MAX_SUBSTITUTED_CHARS);
      await shelf.close();
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
