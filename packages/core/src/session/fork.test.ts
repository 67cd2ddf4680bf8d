/**
 * `context: fork`: the skill runs in a sub-agent; the conversation never gets its body and
 * the sub-agent never gets a tool the conversation could not use. Attacks: a forked skill
 * that whitelists `Bash` under a conversation that allows only `read_file`; one that
 * whitelists the delegation tool to start sub-agents of its own; one whose sub-agent writes
 * into the skill folders.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { skillModels } from "../adapter-kit/skill-model.js";
import { runSkillTool } from "../adapter-kit/tool-calls.js";
import { createShelf, type Shelf } from "../shelf.js";
import type { Diagnostic, Fork, HistoryItem } from "../types.js";

const BODY = "SECRET-PLAYBOOK: audit every dependency and list the risky ones.";
const AUDIT = `---
name: dep-audit
description: Audits the project's dependencies for known risks.
triggers: [audit the dependencies]
context: fork
allowed-tools: read_file bash Task
---
${BODY} Focus on $ARGUMENTS.
`;
const LOOKUP = `---
name: code-lookup
description: Looks things up in the code base.
allowed-tools: read_file web_search Task
---
Answer from the code.
`;
const REVIEWED = `---
name: reviewed-audit
description: Audits a change as the reviewer.
context: fork
agent: reviewer
model: fast-model
---
Review the change for dependency risks.
`;
const EXPLORE = `---
name: explore-audit
description: Audits as Claude Code's Explore agent.
context: fork
agent: Explore
---
Explore the repository.
`;
const TOOLS = ["read_file", "write_file", "bash", "web_search", "delegate"];

let root: string;
let shelf: Shelf;

async function skill(name: string, text: string) {
  await mkdir(path.join(root, ".skillshelf", "skills", name), { recursive: true });
  await writeFile(path.join(root, ".skillshelf", "skills", name, "SKILL.md"), text);
}

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "skillshelf-fork-"));
  await skill("dep-audit", AUDIT);
  await skill("code-lookup", LOOKUP);
  await skill("reviewed-audit", REVIEWED);
  await skill("explore-audit", EXPLORE);
  shelf = await createShelf({ root, userDirs: [], events: false });
});

afterEach(async () => {
  await shelf.close();
  await rm(root, { recursive: true, force: true });
});

const activation = { id: "f1", name: "activate_skill", input: { name: "dep-audit", args: "the lockfile" } };

describe("a context: fork skill activated by the model", () => {
  it("never puts its body in the conversation, nor becomes active there", () => {
    const session = shelf.session({ message: "audit the dependencies", tools: TOOLS });
    const result = session.callSkillTool(activation);
    expect(JSON.stringify(result)).not.toContain("SECRET-PLAYBOOK");
    expect(result).toMatchObject({ status: "error", error_type: "FORK_UNAVAILABLE" });
    expect(session.state.active).toEqual([]);
    expect(session.plan().system).not.toContain("SECRET-PLAYBOOK");
    expect(session.plan().allowedTools).toEqual(TOOLS);
  });

  it("prepares a sub-agent with the body (arguments substituted) and the arguments as its task", () => {
    const session = shelf.session({ message: "audit the dependencies", tools: TOOLS });
    const fork = session.fork(activation);
    expect(fork?.skill).toBe("dep-audit");
    expect(fork?.instructions).toMatch(/^Today is /);
    expect(fork?.instructions).toContain(`${BODY} Focus on the lockfile.`);
    expect(fork?.task).toBe("the lockfile");
    expect(fork?.tools).toEqual(["read_file", "bash"]);
    // The same call asked again is the same sub-agent, prepared once.
    expect(session.fork(activation)).toBe(fork);
    const bare = shelf.session({ message: "audit the dependencies", tools: TOOLS });
    expect(bare.fork({ id: "f2", name: "activate_skill", input: { name: "dep-audit" } })?.task).toBe(
      "audit the dependencies",
    );
  });

  it("gets no tool the conversation's active skills rule out, and says which were withheld", () => {
    const session = shelf.session({ message: "audit the dependencies", tools: TOOLS });
    session.respond([{ id: "l", name: "activate_skill", input: { name: "code-lookup" } }, activation]);
    const fork = session.fork(activation);
    expect(fork?.tools).toEqual(["read_file"]);
    expect(fork?.withheld).toEqual(["bash"]);
  });

  it("never gets the delegation tool, even when its whitelist names it (Task)", () => {
    const session = shelf.session({ message: "audit the dependencies", tools: TOOLS });
    const fork = session.fork(activation)!;
    expect(fork.tools).not.toContain("delegate");
    expect(fork.guard({ name: "delegate", input: { role: "developer", task: "x" } })).toMatchObject({
      allowed: false,
      result: { error_type: "TOOL_NOT_ALLOWED" },
    });
  });

  it("gets no tool the conversation allows only for some commands", async () => {
    await skill(
      "git-only",
      "---\nname: git-only\ndescription: Git things.\nallowed-tools: Bash(git:*) read_file\n---\nUse git.\n",
    );
    await shelf.refresh();
    const session = shelf.session({ message: "audit the dependencies", tools: TOOLS });
    session.respond([{ id: "g", name: "activate_skill", input: { name: "git-only" } }, activation]);
    const fork = session.fork(activation)!;
    expect(fork.tools).toEqual(["read_file"]);
    expect(fork.withheld).toEqual(["bash"]);
  });

  it("its guard refuses a write into the skill folders and a tool it was not given", async () => {
    await skill(
      "writer-audit",
      "---\nname: writer-audit\ndescription: Audits and writes a report.\ncontext: fork\n---\nWrite the report.\n",
    );
    await shelf.refresh();
    const session = shelf.session({ message: "write the audit", tools: TOOLS });
    const fork = session.fork({ id: "w", name: "activate_skill", input: { name: "writer-audit" } })!;
    expect(fork.tools).toEqual(["read_file", "write_file", "bash", "web_search"]);
    const target = path.join(root, ".skillshelf", "skills", "dep-audit", "SKILL.md");
    expect(fork.guard({ name: "write_file", input: { path: target, content: "x" } })).toMatchObject({
      allowed: false,
      result: { error_type: "SKILL_FILES_PROTECTED" },
    });
    expect(fork.guard({ name: "write_file", input: { path: path.join(root, "report.md") } })).toEqual({
      allowed: true,
    });
    expect(fork.guard({ name: "send_email", input: {} })).toMatchObject({ allowed: false });
  });

  it("as the role its agent names: the role's instructions first, its whitelist and the skill's model", () => {
    const session = shelf.session({ message: "review it", tools: TOOLS });
    const fork = session.fork({ id: "r", name: "activate_skill", input: { name: "reviewed-audit" } })!;
    const reviewer = shelf.role("reviewer")!;
    expect(fork.role).toBe("reviewer");
    expect(fork.instructions.indexOf(reviewer.instructions)).toBeGreaterThan(0);
    expect(fork.instructions.indexOf(reviewer.instructions)).toBeLessThan(
      fork.instructions.indexOf("Review the change for dependency risks."),
    );
    expect(fork.tools).toEqual(["read_file", "web_search"]);
    expect(fork.model).toBe("fast-model");
  });

  it("an agent that is no role on the shelf runs as a plain sub-agent, with an info saying so", () => {
    const session = shelf.session({ message: "explore", tools: TOOLS });
    const fork = session.fork({ id: "e", name: "activate_skill", input: { name: "explore-audit" } })!;
    expect(fork.role).toBeUndefined();
    expect(fork.diagnostics).toEqual([
      expect.objectContaining({ severity: "info", code: "field-not-applied" }),
    ]);
  });
});

describe("runSkillTool with a fork runner", () => {
  it("returns the sub-agent's answer, run inside the conversation's session, and a replay activates nothing", async () => {
    const session = shelf.session({ message: "audit the dependencies", tools: TOOLS });
    session.respond([activation]);
    let given: Fork | undefined;
    const result = await runSkillTool(session, activation, {
      fork: async (fork) => {
        given = fork;
        return "Two risky packages: left-pad, event-stream.";
      },
    });
    expect(given?.instructions).toContain("SECRET-PLAYBOOK");
    expect(result).toMatchObject({
      status: "success",
      data: { skill: "dep-audit", forked: true, text: "Two risky packages: left-pad, event-stream." },
    });
    expect(JSON.stringify(result)).not.toContain("SECRET-PLAYBOOK");

    const history: HistoryItem[] = [
      { kind: "user", text: "audit the dependencies" },
      { kind: "tool-call", id: "f1", toolName: "activate_skill", input: activation.input, output: result },
    ];
    const replayed = shelf.session({ history, tools: TOOLS });
    expect(replayed.state.active).toEqual([]);
    expect(replayed.plan().system).not.toContain("SECRET-PLAYBOOK");
  });

  it("a delegation the sub-agent starts is bounded by the fork's tools, not only the conversation's", async () => {
    // The host's delegation tool under a name core does not know: the fork may be given it.
    await skill(
      "hand-off",
      "---\nname: hand-off\ndescription: Hands the work on.\ncontext: fork\nallowed-tools: read_file handoff\n---\nHand it off.\n",
    );
    await shelf.refresh();
    const tools = ["read_file", "bash", "handoff"];
    const session = shelf.session({ message: "hand it off", tools });
    const call = { id: "h", name: "activate_skill", input: { name: "hand-off" } };
    let delegated: string[] | undefined;
    await runSkillTool(session, call, {
      fork: async (fork) => {
        expect(fork.tools).toEqual(["read_file", "handoff"]);
        // The sub-agent calls the host's delegation tool, which prepares a developer sub-agent.
        const prepared = shelf.prepareDelegation({ role: "developer", task: "run the tests" }, tools);
        if (prepared.status === "success") delegated = prepared.data.tools;
        return "done";
      },
    });
    expect(delegated).toBeDefined();
    expect(delegated).not.toContain("bash");
  });

  it("without one, the call reads FORK_UNAVAILABLE and nothing ran", async () => {
    const session = shelf.session({ message: "audit the dependencies", tools: TOOLS });
    expect(await runSkillTool(session, activation)).toMatchObject({ error_type: "FORK_UNAVAILABLE" });
  });
});

describe("a context: fork skill the user runs with /name", () => {
  it("activates nothing; the model is offered its tool and asked to start it once", () => {
    const session = shelf.session({ message: "/dep-audit the lockfile", tools: TOOLS });
    expect(session.state.active).toEqual([]);
    const plan = session.plan();
    expect(plan.system).not.toContain("SECRET-PLAYBOOK");
    expect(plan.system).toContain("The user ran /dep-audit the lockfile");
    expect(plan.system).toContain('Call skill_dep-audit with {"args":"the lockfile"} once');
    expect(plan.tools.map((t) => t.name)).toContain("skill_dep-audit");
    const fork = session.fork({ id: "u1", name: "skill_dep-audit", input: {} });
    expect(fork?.task).toBe("the lockfile");
    expect(fork?.instructions).toContain("Focus on the lockfile.");
  });

  it("a user-only forked skill is started for the user's /name, and refused to the model otherwise", async () => {
    await skill(
      "release",
      "---\nname: release\ndescription: Cut a release.\ncontext: fork\ndisable-model-invocation: true\n---\nRELEASE-BODY\n",
    );
    await shelf.refresh();
    const asked = shelf.session({ message: "/release", tools: TOOLS });
    expect(asked.plan().tools.map((t) => t.name)).toContain("skill_release");
    expect(asked.fork({ id: "r1", name: "skill_release", input: {} })?.instructions).toContain(
      "RELEASE-BODY",
    );

    const unasked = shelf.session({ message: "cut a release", tools: TOOLS });
    expect(unasked.plan().tools.map((t) => t.name)).not.toContain("skill_release");
    expect(unasked.fork({ id: "r2", name: "activate_skill", input: { name: "release" } })).toBeUndefined();
    expect(
      unasked.callSkillTool({ id: "r2", name: "activate_skill", input: { name: "release" } }),
    ).toMatchObject({ error_type: "MODEL_INVOCATION_DISABLED" });
  });

  it("rebuilt from the history after it ran, nothing is active and the body is nowhere", async () => {
    const session = shelf.session({ message: "/dep-audit the lockfile", tools: TOOLS });
    const call = { id: "u1", name: "skill_dep-audit", input: {} };
    const result = await runSkillTool(session, call, { fork: async () => "no risks" });
    const replayed = shelf.session({
      history: [
        { kind: "user", text: "/dep-audit the lockfile" },
        { kind: "tool-call", id: "u1", toolName: "skill_dep-audit", input: {}, output: result },
      ],
      tools: TOOLS,
    });
    expect(replayed.state.active).toEqual([]);
    expect(replayed.plan().system).not.toContain("SECRET-PLAYBOOK");
  });
});

describe("a forked skill's model", () => {
  it("unmapped, the sub-agent runs on the agent's model and the info names the forked skill", () => {
    const told: Diagnostic[] = [];
    const modelFor = skillModels<string>(undefined, (d) => told.push(d));
    const session = shelf.session({ message: "review it", tools: TOOLS });
    const fork = session.fork({ id: "m", name: "activate_skill", input: { name: "reviewed-audit" } })!;
    expect(modelFor(fork.model, session, fork.skill)).toBeUndefined();
    expect(told).toHaveLength(1);
    expect(told[0]!.message).toContain('Skill "reviewed-audit" asks for model "fast-model"');
  });
});
