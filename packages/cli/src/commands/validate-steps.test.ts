import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../main.js";
import { capture } from "../test-utils/capture.js";
import type { ValidateReport } from "./validate.js";

async function write(root: string, rel: string, text: string): Promise<void> {
  const file = path.join(root, rel);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, text);
}

const WORKFLOW = `---
name: two-steps
description: A workflow of two steps.
steps:
  - { id: draft, input: [args], output: text }
  - { id: check, input: [text], output: verdict }
---
Two steps.
`;

describe("skillshelf validate on a workflow skill", () => {
  it("reports a missing step prompt file, and passes once it is there", async () => {
    const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "skillshelf-cli-steps-")));
    await write(root, "skills/two-steps/SKILL.md", WORKFLOW);
    await write(root, "skills/two-steps/steps/01-draft.md", "Draft it.");
    const cap = capture(root);
    expect(await main(["validate", "--json", "skills"], cap.ctx)).toBe(1);
    const report = JSON.parse(cap.out()) as ValidateReport;
    expect(report.files[0]!.diagnostics.map((d) => [d.code, d.message])).toEqual([
      [
        "missing-step-file",
        'step 2 (`check`): steps/02-check.md: there is no file "steps/02-check.md" in the skill folder',
      ],
    ]);
    await write(root, "skills/two-steps/steps/02-check.md", "Check it.");
    const again = capture(root);
    expect(await main(["validate", "skills"], again.ctx)).toBe(0);
  });
});
