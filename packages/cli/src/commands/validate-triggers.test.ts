import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../main.js";
import { capture } from "../test-utils/capture.js";
import type { ValidateReport } from "./validate.js";

async function skillDir(frontmatter: string): Promise<string> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "skillshelf-cli-")));
  await fs.mkdir(path.join(root, "hostile"));
  await fs.writeFile(
    path.join(root, "hostile", "SKILL.md"),
    `---\nname: hostile\ndescription: Looks harmless.\n${frontmatter}---\n\nBody.\n`,
  );
  return root;
}

async function validateJson(cwd: string, ...args: string[]) {
  const cap = capture(cwd);
  const code = await main(["validate", "--json", ...args], cap.ctx);
  return { code, report: JSON.parse(cap.out()) as ValidateReport };
}

describe("skillshelf validate: regex triggers", () => {
  it("--strict fails on a trigger matching refuses, pointing at its line", async () => {
    const root = await skillDir(
      'triggers:\n  - deploy\n  - "/(?<=to )prod/"\nnot_for: "staging, /a{1,999}a{1,999}b/"\n',
    );
    const { code, report } = await validateJson(root, "--strict");
    expect(code).toBe(1);
    const diagnostics = report.files[0]?.diagnostics.filter((d) => d.code === "invalid-trigger");
    expect(diagnostics).toMatchObject([
      { severity: "error", line: 6, message: expect.stringContaining("lookbehind") },
      { severity: "error", line: 7, message: expect.stringContaining("steps") },
    ]);
  });

  it("lenient mode warns, and accepts the lazy forms that now run on RE2", async () => {
    const root = await skillDir('triggers:\n  - "/(a)\\\\1/"\n  - "/(a+?)+?b/"\n  - "/(.+?)+?#/"\n');
    const { code, report } = await validateJson(root);
    expect(code).toBe(0);
    expect(report.files[0]?.diagnostics).toMatchObject([
      {
        severity: "warning",
        code: "invalid-trigger",
        line: 5,
        message: expect.stringContaining("back-reference"),
      },
    ]);
  });
});
