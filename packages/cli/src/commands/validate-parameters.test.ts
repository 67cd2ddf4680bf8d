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

const SKILL = "---\nname: member-query\ndescription: Look up members.\n---\nFind members in $range.\n";

describe("skillshelf validate on a skill with a parameter schema", () => {
  it("reports a broken schema.json at its line, and passes once it is fixed", async () => {
    const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "skillshelf-cli-params-")));
    await write(root, "skills/member-query/SKILL.md", SKILL);
    await write(
      root,
      "skills/member-query/schema.json",
      '{\n  "type": "object",\n  "properties": {\n    "range": { "type": "strng" }\n  }\n}\n',
    );
    const cap = capture(root);
    expect(await main(["validate", "--json", "skills"], cap.ctx)).toBe(1);
    const report = JSON.parse(cap.out()) as ValidateReport;
    const problems = report.files[0]!.diagnostics.filter((d) => d.code === "invalid-parameters");
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({
      severity: "error",
      file: path.join("skills", "member-query", "schema.json"),
      line: 4,
    });

    await write(
      root,
      "skills/member-query/schema.json",
      '{ "type": "object", "properties": { "range": { "enum": ["this_month", "last_3_months"] } } }\n',
    );
    expect(await main(["validate", "skills"], capture(root).ctx)).toBe(0);
  });

  it("checks a `parameters:` field in the frontmatter too", async () => {
    const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "skillshelf-cli-params-")));
    await write(
      root,
      "skills/member-query/SKILL.md",
      "---\nname: member-query\ndescription: Look up members.\nparameters:\n  type: object\n  properties:\n    range: { $ref: '#/definitions/nowhere' }\n---\nBody.\n",
    );
    const cap = capture(root);
    expect(await main(["validate", "--json", "skills"], cap.ctx)).toBe(1);
    const report = JSON.parse(cap.out()) as ValidateReport;
    expect(report.files[0]!.diagnostics.map((d) => d.code)).toContain("invalid-parameters");
  });
});
