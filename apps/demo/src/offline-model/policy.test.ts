import { describe, expect, it } from "vitest";
import { decide, type OfflineRequest } from "./policy.js";

const tool = (name: string, description = "") => ({ name, description });
const ask = (text: string, tools: OfflineRequest["tools"], system = ""): OfflineRequest => ({
  system,
  messages: [{ role: "user", text }],
  tools,
});

describe("the offline model's rules", () => {
  it("loads an offered skill only when the request names it", () => {
    const memory = { seenTools: new Set<string>() };
    const tools = [tool("skill_release-notes"), tool("git_log")];
    expect(decide(ask("Write the release notes please", tools), memory)).toEqual({
      toolCalls: [{ name: "skill_release-notes", args: {} }],
    });
    expect(decide(ask("Rename the notes", tools), memory)).not.toHaveProperty(
      "toolCalls.0.name",
      "skill_release-notes",
    );
  });

  it("tries write_file under release-notes once it has seen it — the habit the guard stops", () => {
    const system = '<skill_content name="release-notes">…</skill_content>';
    const log = "abc1234 feat: x\nabc1233 release: v1";
    const request: OfflineRequest = {
      system,
      tools: [tool("git_log"), tool("read_file")],
      messages: [
        { role: "user", text: "release notes" },
        { role: "assistant", toolCalls: [{ id: "1", name: "git_log", args: {} }] },
        { role: "tool", id: "1", name: "git_log", output: log },
      ],
    };
    expect(decide(request, { seenTools: new Set(["write_file"]) })).toMatchObject({
      toolCalls: [{ name: "write_file", args: { path: "RELEASE_NOTES.md" } }],
    });
    expect(decide(request, { seenTools: new Set() })).toMatchObject({
      text: expect.stringContaining("### Features"),
    });
  });

  it("follows a rule in the skill that rules write_file out: suggests a file name instead of trying it", () => {
    const system =
      '<skill_content name="release-notes">6. Use only this skill\'s allowed-tools (never `write_file`, even if used earlier)</skill_content>';
    const request: OfflineRequest = {
      system,
      tools: [tool("git_log"), tool("read_file")],
      messages: [
        { role: "user", text: "release notes" },
        { role: "assistant", toolCalls: [{ id: "1", name: "git_log", args: {} }] },
        { role: "tool", id: "1", name: "git_log", output: "abc1234 feat: x\nabc1233 release: v1" },
      ],
    };
    expect(decide(request, { seenTools: new Set(["write_file"]) })).toEqual({
      text: expect.stringContaining("save them as RELEASE_NOTES.md"),
    });
  });

  it("ends batch-rename with the offered end tool after its last rename, then reports", () => {
    const system = '<skill_content name="batch-rename">file in `docs`, starts with `m-`</skill_content>';
    const turn: OfflineRequest["messages"] = [
      { role: "user", text: "/batch-rename docs m-" },
      { role: "assistant", toolCalls: [{ id: "1", name: "list_files", args: { folder: "docs" } }] },
      { role: "tool", id: "1", name: "list_files", output: "docs/a.md" },
      { role: "assistant", toolCalls: [{ id: "2", name: "rename_file", args: { from: "docs/a.md" } }] },
      { role: "tool", id: "2", name: "rename_file", output: "renamed docs/a.md → docs/m-a.md" },
    ];
    const tools = [tool("list_files"), tool("rename_file"), tool("end_skill")];
    const memory = { seenTools: new Set<string>() };
    expect(decide({ system, messages: turn, tools }, memory)).toEqual({
      toolCalls: [{ name: "end_skill", args: { name: "batch-rename" } }],
    });
    const ended = '{"status":"success","data":{"ended":["batch-rename"]},"message":"Ended"}';
    const after: OfflineRequest = {
      system: "", // the body has left the prompt
      tools: [tool("list_files"), tool("rename_file")],
      messages: [
        ...turn,
        { role: "assistant", toolCalls: [{ id: "3", name: "end_skill", args: { name: "batch-rename" } }] },
        { role: "tool", id: "3", name: "end_skill", output: ended },
      ],
    };
    expect(decide(after, memory)).toEqual({ text: "Renamed 1 files:\n  docs/a.md → docs/m-a.md" });
  });

  it("acknowledges /done as core's note says, and answers a search with grep", () => {
    const memory = { seenTools: new Set<string>() };
    expect(decide(ask("/done", [], 'The user ended "release-notes" (/done): …'), memory)).toEqual({
      text: "Done: release-notes has ended.",
    });
    expect(
      decide(ask("/done", [], "The user typed /done, but no skill was active. Acknowledge briefly."), memory),
    ).toEqual({ text: "No skill was active, so there was nothing to end." });
    expect(decide(ask("Search the web for md5.", [tool("grep")]), memory)).toEqual({
      toolCalls: [{ name: "grep", args: { pattern: "md5" } }],
    });
    expect(decide(ask("search the code for a.b", [tool("grep")]), memory)).toEqual({
      toolCalls: [{ name: "grep", args: { pattern: "a\\.b" } }],
    });
  });

  it("answers an improvement analysis with a proposal only for a refused call, and never one already decided", () => {
    const system = 'Answer with JSON only, in this shape: {"proposals": [...]}';
    const prompt = (transcript: string, extra = "") =>
      `<skill>\n---\nname: x\n---\n1. Do a.\n2. Do b.\n</skill>\n${extra}\n<transcript>\n${transcript}\n</transcript>`;
    const answer = (p: string) =>
      JSON.parse((decide(ask(p, [], system), { seenTools: new Set() }) as { text: string }).text);

    const refused = "assistant → write_file: TOOL_NOT_ALLOWED (not in the allowed-tools of x)";
    const { proposals } = answer(prompt(refused));
    expect(proposals).toHaveLength(1);
    expect(proposals[0].edits[0]).toEqual({
      before: "2. Do b.",
      after: expect.stringMatching(/^2\. Do b\.\n3\. .*`write_file`/),
    });
    expect(proposals[0].evidence).toEqual([refused]);

    expect(answer(prompt("assistant: all good")).proposals).toEqual([]);
    // Another skill's refusal earlier in the conversation is not this skill's to fix.
    const otherRefused = "assistant → write_file: TOOL_NOT_ALLOWED (not in the allowed-tools of y)";
    expect(answer(prompt(otherRefused)).proposals).toEqual([]);
    const rejected = `## Already rejected\n- "${proposals[0].title}" — rejected because: no`;
    expect(answer(prompt(refused, rejected)).proposals).toEqual([]);
  });
});
