/**
 * An improvement proposal is written by a model from transcripts a hostile user or tool
 * output can steer, and a reviewer reads it as a body diff. So what decides when a skill is
 * chosen, how it runs and which tools its workflow steps run must stay frozen like its
 * permissions: `paths:` (dropping it lets a skill gated on files take every conversation),
 * `context: fork` and `agent` (which sub-agent runs it), and a step's `run:` (a tool the
 * host's auto mode runs with no model deciding).
 */
import { describe, expect, it } from "vitest";
import { checkMerge } from "./guards.js";

const BEFORE = `---
name: release-notes
description: Writes release notes from the changelog.
allowed-tools: read_file write_file send_email
paths: ["CHANGELOG.md"]
steps:
  - { id: draft, title: Draft the notes, output: notes }
  - { id: save, title: Save them, input: [notes], output: saved, run: "tool:write_file" }
---
Read CHANGELOG.md and write the notes.
`;

const guardsOf = (after: string) =>
  checkMerge({ name: "release-notes", before: BEFORE, after, changesDescription: false }).violations.map(
    (v) => v.guard,
  );

describe("an improvement never changes how a skill is chosen or what its steps run", () => {
  it("a small body edit passes", () => {
    expect(guardsOf(BEFORE.replace("write the notes.", "write the notes, newest first."))).toEqual([]);
  });

  it("dropping or widening paths: is refused", () => {
    expect(guardsOf(BEFORE.replace('paths: ["CHANGELOG.md"]\n', ""))).toEqual(["routing"]);
    expect(guardsOf(BEFORE.replace('paths: ["CHANGELOG.md"]', 'paths: ["**"]'))).toEqual(["routing"]);
  });

  it("running it as a fork, or as another agent, is refused", () => {
    expect(guardsOf(BEFORE.replace("paths:", "context: fork\npaths:"))).toEqual(["routing"]);
    expect(guardsOf(BEFORE.replace("paths:", "agent: general-purpose\npaths:"))).toEqual(["routing"]);
  });

  it("a step that runs another tool is refused", () => {
    expect(guardsOf(BEFORE.replace("tool:write_file", "tool:send_email"))).toEqual(["permissions"]);
    const extra = BEFORE.replace(
      "---\nRead",
      '  - { id: mail, title: Mail them, input: [saved], output: mailed, run: "tool:send_email" }\n---\nRead',
    );
    expect(guardsOf(extra)).toEqual(["permissions"]);
  });

  it("a step that runs nothing may be added, and steps may be reordered", () => {
    const review = BEFORE.replace(
      "  - { id: save",
      "  - { id: review, title: Review the draft, input: [notes], output: notes2 }\n  - { id: save",
    );
    expect(guardsOf(review)).not.toContain("permissions");
  });

  it("a step's title may still be improved", () => {
    expect(guardsOf(BEFORE.replace("title: Draft the notes", "title: Draft the notes newest first"))).toEqual(
      [],
    );
  });
});
