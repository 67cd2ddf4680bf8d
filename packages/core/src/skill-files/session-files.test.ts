/**
 * The reader and the script runner as a session offers them: real shelves in temp projects,
 * a real corpus skill with references/ and scripts/, the usage store and the event log.
 */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describeWithSharedData, sharedData } from "@skillshelf/test-utils";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createShelf, type Shelf } from "../shelf.js";
import type { ScriptRunResult, SkillEvent, SkillFileResult, ToolSpec } from "../types.js";
import { createMemoryUsageStore } from "../usage/store.js";
import type { ScriptRequest } from "./scripts.js";

const CORPUS = sharedData("skills-corpus/");
const SKILL_CREATOR = "anthropics--skills/skills/skill-creator";

const RELEASE = `---
name: release-notes
description: Draft release notes from the git log.
triggers: [release notes]
allowed-tools: git_log
---
Read references/format.md, then run scripts/version.js.
`;

let root: string;
let shelf: Shelf | undefined;

async function write(rel: string, text: string) {
  const file = path.join(root, rel);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
}

const names = (tools: readonly ToolSpec[]) => tools.map((t) => t.name);

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "skillshelf-session-files-"));
  await write(".skillshelf/skills/release-notes/SKILL.md", RELEASE);
  await write(
    ".skillshelf/skills/release-notes/references/format.md",
    "# Format\n\nAdded, Fixed, Changed.\n",
  );
  await write(
    ".skillshelf/skills/release-notes/scripts/version.js",
    "console.log('v' + (process.argv[2] ?? '1.0.0'));\n",
  );
});
afterEach(async () => {
  await shelf?.close();
  shelf = undefined;
  await rm(root, { recursive: true, force: true });
});

describe("the confined reader in a session", () => {
  it("is offered only while a skill with a folder is active, whatever its whitelist", async () => {
    const events: SkillEvent[] = [];
    const usage = createMemoryUsageStore();
    shelf = await createShelf({ root, userDirs: [], usage, events: { emit: (e) => events.push(e) } });
    const session = shelf.session({ message: "write the release notes", tools: ["git_log", "read_file"] });
    expect(names(session.plan().tools)).not.toContain("read_skill_file");

    const activation = session.callSkillTool({ name: "skill_release-notes", input: {} });
    expect(activation?.status).toBe("success");
    expect(activation?.message).toContain('read one with read_skill_file ({"path": "<one of resources>"})');
    const plan = session.plan();
    expect(plan.allowedTools).toEqual(["git_log"]); // read_file is not whitelisted …
    expect(names(plan.tools)).toContain("read_skill_file"); // … the skill's own files still are readable
    expect(session.guard("read_skill_file").allowed).toBe(true);
    expect(session.guard("read_file").allowed).toBe(false);

    const before = usage.get("release-notes")?.count ?? 0;
    const read = session.answerSkillTool({
      id: "r1",
      name: "read_skill_file",
      input: { path: "references/format.md" },
    }) as SkillFileResult;
    expect(read).toMatchObject({
      status: "success",
      data: { skill: "release-notes", content: "# Format\n\nAdded, Fixed, Changed.\n" },
    });
    expect(usage.get("release-notes")?.count).toBe(before + 1);
    expect(events.some((e) => e.type === "skill-read" && e.path === "references/format.md")).toBe(true);

    expect(
      session.answerSkillTool({ name: "read_skill_file", input: { path: "../../../etc/passwd" } }),
    ).toMatchObject({
      status: "error",
      error_type: "INVALID_PATH",
    });
    session.answerSkillTool({ name: "end_skill", input: {} });
    expect(names(session.plan().tools)).not.toContain("read_skill_file");
    expect(
      session.answerSkillTool({ name: "read_skill_file", input: { path: "references/format.md" } }),
    ).toMatchObject({
      error_type: "NOT_ACTIVE",
    });
  });

  it("reads in response order: after an activation in the same response", async () => {
    shelf = await createShelf({ root, userDirs: [], events: false });
    const session = shelf.session({ message: "write the release notes", tools: ["git_log"] });
    session.plan();
    const calls = [
      { id: "a", name: "skill_release-notes", input: {} },
      { id: "b", name: "read_skill_file", input: { path: "references/format.md" } },
    ];
    session.respond(calls);
    expect(session.answerSkillTool(calls[1]!)).toMatchObject({ status: "success" });
  });

  it("gives way to a host tool of the same name", async () => {
    shelf = await createShelf({ root, userDirs: [], events: false });
    const session = shelf.session({
      message: "write the release notes",
      tools: ["git_log", "read_skill_file"],
    });
    session.callSkillTool({ name: "skill_release-notes", input: {} });
    const offered = names(session.plan().tools);
    expect(offered).toContain("skillshelf_read_skill_file");
    expect(session.isSkillTool("read_skill_file")).toBe(false);
    expect(session.answerSkillTool({ name: "read_skill_file", input: { path: "x" } })).toBeUndefined();
  });

  it("is not offered for a builtin skill (it has no folder)", async () => {
    shelf = await createShelf({
      root,
      userDirs: [],
      events: false,
      builtins: [{ meta: { name: "tone", description: "Write in a friendly tone." }, body: "Be friendly." }],
    });
    const session = shelf.session({ message: "hi", tools: ["git_log"] });
    expect(session.activate("tone").status).toBe("success");
    expect(names(session.plan().tools)).not.toContain("read_skill_file");
  });
});

describe("skill scripts in a session", () => {
  it("are not offered unless the host turns them on", async () => {
    shelf = await createShelf({ root, userDirs: [], events: false });
    const session = shelf.session({ message: "write the release notes", tools: ["git_log"] });
    session.activate("release-notes");
    expect(names(session.plan().tools)).not.toContain("run_skill_script");
    expect(session.isSkillTool("run_skill_script")).toBe(false);
  });

  it("run once per call, after the host approves, never when respond() sees the call", async () => {
    const requests: ScriptRequest[] = [];
    shelf = await createShelf({
      root,
      userDirs: [],
      events: false,
      scripts: {
        run: true,
        approve: (request) => {
          requests.push(request);
          return request.args[0] !== "9.9.9";
        },
      },
    });
    const session = shelf.session({ message: "write the release notes", tools: ["git_log"] });
    const activation = session.callSkillTool({ name: "skill_release-notes", input: {} });
    expect(activation?.message).toContain("Its scripts run with run_skill_script");
    const spec = session.plan().tools.find((t) => t.name === "run_skill_script");
    expect(spec?.description).toContain("release-notes: scripts/version.js");

    const call = {
      id: "s1",
      name: "run_skill_script",
      input: { script: "scripts/version.js", args: ["2.0.0"] },
    };
    session.respond([call]);
    expect(requests).toHaveLength(0);
    const first = session.answerSkillTool(call) as Promise<ScriptRunResult>;
    const again = session.answerSkillTool(call) as Promise<ScriptRunResult>;
    expect(await first).toMatchObject({ status: "success", data: { exitCode: 0, stdout: "v2.0.0\n" } });
    expect(await again).toBe(await first);
    expect(requests).toHaveLength(1);

    const refused = await session.answerSkillTool({
      name: "run_skill_script",
      input: { script: "scripts/version.js", args: ["9.9.9"] },
    });
    expect(refused).toMatchObject({ status: "error", error_type: "NOT_APPROVED" });
  });
});

describeWithSharedData("a corpus skill's references and scripts", () => {
  it("skill-creator: the model reads references/schemas.md and a script run asks first", async () => {
    const dir = path.join(root, ".skillshelf", "skills", "skill-creator");
    await cp(path.join(CORPUS, SKILL_CREATOR), dir, { recursive: true });
    const approvals: ScriptRequest[] = [];
    let answer = false;
    shelf = await createShelf({
      root,
      userDirs: [],
      events: false,
      scripts: {
        run: true,
        approve: (r) => {
          approvals.push(r);
          return answer;
        },
        timeoutMs: 20_000,
      },
    });
    const session = shelf.session({ message: "/skill-creator", tools: ["read_file", "bash"] });
    const plan = session.plan();
    expect(plan.explicit?.status).toBe("success");
    const reader = plan.tools.find((t) => t.name === "read_skill_file");
    expect(JSON.stringify(reader?.inputSchema)).toContain("skill-creator");
    const read = session.answerSkillTool({
      name: "read_skill_file",
      input: { path: "references/schemas.md" },
    }) as SkillFileResult;
    const expected = await readFile(path.join(dir, "references", "schemas.md"), "utf8");
    expect(read).toMatchObject({
      status: "success",
      data: { kind: "text", content: expected, nextOffset: null },
    });

    expect(plan.tools.find((t) => t.name === "run_skill_script")?.description).toContain(
      "scripts/quick_validate.py",
    );
    const call = { name: "run_skill_script", input: { script: "scripts/quick_validate.py", args: ["."] } };
    expect(await session.answerSkillTool(call)).toMatchObject({ error_type: "NOT_APPROVED" });
    answer = true;
    const ran = (await session.answerSkillTool(call)) as ScriptRunResult;
    expect(ran.status).toBe("success");
    if (ran.status === "success") {
      expect(ran.data.timedOut).toBe(false);
      expect(typeof ran.data.exitCode).toBe("number");
    }
    expect(approvals.map((a) => [a.command, a.script])).toEqual([
      ["python3", "scripts/quick_validate.py"],
      ["python3", "scripts/quick_validate.py"],
    ]);
  });
});
