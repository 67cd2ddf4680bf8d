import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseSkill } from "./parse-skill.js";

const skill = (frontmatter: string, body = "# Title\n\nDo the thing.\n") =>
  `---\n${frontmatter}\n---\n\n${body}`;

describe("parseSkill: the common case", () => {
  it("normalises the frontmatter, keeps the body and hashes the bytes", () => {
    const text = skill(
      "name: pdf-tools\ndescription: Extract text from PDF files.\nallowed-tools: Read Bash(gh issue:*)",
    );
    const { skill: parsed, diagnostics } = parseSkill(text, { path: "/skills/pdf-tools/SKILL.md" });
    expect(diagnostics).toEqual([]);
    expect(parsed).toEqual({
      name: "pdf-tools",
      description: "Extract text from PDF files.",
      triggers: [],
      exclusions: [],
      examples: [],
      allowedTools: ["Read", "Bash(gh issue:*)"],
      disallowedTools: [],
      disableModelInvocation: false,
      userInvocable: true,
      arguments: [],
      role: false,
      priority: 0,
      extra: {},
      body: "# Title\n\nDo the thing.",
      bodyLine: 7,
      file: "/skills/pdf-tools/SKILL.md",
      hash: createHash("sha256").update(text).digest("hex"),
    });
  });

  it("skips a skill without a description, pointing at line 1", () => {
    const { skill: parsed, diagnostics } = parseSkill(skill("name: pdf-tools"), {
      path: "/s/pdf-tools/SKILL.md",
    });
    expect(parsed).toBeUndefined();
    expect(diagnostics).toMatchObject([{ severity: "error", code: "missing-description", line: 1 }]);
  });
});
