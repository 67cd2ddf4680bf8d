import { describe, expect, it } from "vitest";
import { memoryEventSink } from "../events/memory-sink.js";
import { loadBuiltins } from "../load/builtin.js";
import { parseSkill } from "../parse/parse-skill.js";
import { fixedSource, makeSkill } from "../session/test-utils/skills.js";
import type { Role } from "../types.js";
import { builtinRoleSkills } from "./builtin-roles.js";
import { delegationToolSpec, prepareDelegation } from "./delegation.js";
import { roleAgentSpec } from "./role-agent-spec.js";
import { DELEGATE_TOOL, resolveRoleTools } from "./role-tools.js";
import { roleFromSkill, roleOf, rolesOf } from "./roles.js";

const DEEPAGENTS_TOOLS = [
  "ls",
  "read_file",
  "write_file",
  "edit_file",
  "glob",
  "grep",
  "execute",
  "web_search",
  "task",
];

function builtinRoles(options?: { locked?: boolean }): Role[] {
  const { skills, diagnostics } = loadBuiltins(builtinRoleSkills(options));
  expect(diagnostics).toEqual([]);
  return rolesOf(fixedSource(skills));
}

describe("builtin roles", () => {
  it("are researcher, developer and reviewer, loaded as role skills without diagnostics", () => {
    const roles = builtinRoles();
    expect(roles.map((r) => r.name)).toEqual(["researcher", "developer", "reviewer"]);
    for (const role of roles) {
      expect(role.scope).toBe("builtin");
      expect(role.file).toBe(`builtin:${role.name}`);
      expect(role.instructions.length).toBeGreaterThan(600);
      expect(role.instructions).toMatch(/## What to return/);
      expect(role.description.length).toBeLessThan(1024);
    }
  });

  it("are not locked unless asked", () => {
    expect(loadBuiltins(builtinRoleSkills()).skills.every((s) => !s.locked)).toBe(true);
    expect(loadBuiltins(builtinRoleSkills({ locked: true })).skills.every((s) => s.locked)).toBe(true);
  });

  it("get sensible tools from a deepagents-style host", () => {
    const [researcher, developer, reviewer] = builtinRoles();
    expect(resolveRoleTools(researcher!, DEEPAGENTS_TOOLS).tools).toEqual([
      "ls",
      "read_file",
      "glob",
      "grep",
      "web_search",
    ]);
    expect(resolveRoleTools(developer!, DEEPAGENTS_TOOLS).tools).toEqual([
      "ls",
      "read_file",
      "write_file",
      "edit_file",
      "glob",
      "grep",
      "execute",
      "web_search",
    ]);
    // The reviewer reads (code, and docs on the web) but never writes or runs commands.
    expect(resolveRoleTools(reviewer!, DEEPAGENTS_TOOLS).tools).toEqual([
      "ls",
      "read_file",
      "glob",
      "grep",
      "web_search",
    ]);
  });

  it("get only tools they name (no globs): other read-only host tools come in through toolAliases", () => {
    const [, , reviewer] = builtinRoles();
    const tools = ["search_code", "list_files", "read_page", "write_page", "edit_issue", "jira_search"];
    expect(resolveRoleTools(reviewer!, tools).tools).toEqual(["search_code", "list_files"]);
    expect(
      resolveRoleTools(reviewer!, tools, { toolAliases: { Read: ["read_page"], WebSearch: ["jira_search"] } })
        .tools,
    ).toEqual(["search_code", "list_files", "read_page", "jira_search"]);
  });
});

describe("role skills are sub-agents, not /commands", () => {
  it("a role skill is not user-invocable unless its file says user-invocable: true", () => {
    const role = parseSkill(
      "---\nname: critic\ndescription: Critiques drafts.\nrole: true\n---\nCritique.\n",
    );
    expect(role.skill).toMatchObject({ role: true, userInvocable: false });
    const optedIn = parseSkill(
      "---\nname: critic\ndescription: Critiques drafts.\nrole: true\nuser-invocable: true\n---\nCritique.\n",
    );
    expect(optedIn.skill).toMatchObject({ role: true, userInvocable: true });
    const plain = parseSkill("---\nname: pdf\ndescription: Reads PDFs.\n---\nRead.\n");
    expect(plain.skill?.userInvocable).toBe(true);
  });

  it("the builtin roles are not user-invocable", () => {
    for (const skill of loadBuiltins(builtinRoleSkills()).skills) expect(skill.userInvocable).toBe(false);
  });
});

describe("roles from skills", () => {
  it("maps a role skill to a Role (and skips plain skills)", () => {
    const source = fixedSource([
      makeSkill("translator", {
        role: true,
        description: "Translates text.",
        whenToUse: "for any translation",
        body: "\n# Translator\nTranslate faithfully.\n",
        allowedTools: ["read_file"],
        disallowedTools: ["execute"],
        model: "gpt-small",
      }),
      makeSkill("pdf"),
    ]);
    expect(rolesOf(source)).toEqual([
      {
        name: "translator",
        description: "Translates text. for any translation",
        instructions: "# Translator\nTranslate faithfully.",
        allowedTools: ["read_file"],
        disallowedTools: ["execute"],
        model: "gpt-small",
        scope: "project",
        file: "/skills/translator/SKILL.md",
      },
    ]);
    expect(roleOf(source, "pdf")).toBeUndefined();
    expect(roleOf(source, "nope")).toBeUndefined();
    expect(roleFromSkill(makeSkill("bare", { role: true })).allowedTools).toBeUndefined();
  });
});

describe("delegation", () => {
  const roles = builtinRoles();

  it("delegationToolSpec: { role (enum), task }, each role described", () => {
    const spec = delegationToolSpec(roles)!;
    expect(spec.name).toBe(DELEGATE_TOOL);
    expect(spec.inputSchema).toMatchObject({
      type: "object",
      required: ["role", "task"],
      properties: {
        role: { type: "string", enum: ["researcher", "developer", "reviewer"] },
        task: { type: "string" },
      },
    });
    for (const role of roles) expect(spec.description).toContain(`- ${role.name}: `);
    expect(delegationToolSpec([])).toBeUndefined();
    expect(delegationToolSpec(roles, { name: "spawn_agent" })!.name).toBe("spawn_agent");
  });

  it("delegationToolSpec: a user-only role is not listed; all user-only, the tool names none", () => {
    const [open, ...rest] = roles;
    const closed = rest.map((r) => ({ ...r, userOnly: true as const }));
    const some = delegationToolSpec([open!, ...closed])!;
    expect(some.description).toContain(`- ${open!.name}: `);
    for (const role of closed) expect(some.description).not.toContain(`- ${role.name}: `);
    expect((some.inputSchema.properties as Record<string, { enum?: string[] }>).role!.enum).toEqual([
      open!.name,
    ]);

    // Before: with every role user-only the tool listed them all, inviting calls that are refused.
    const none = delegationToolSpec(closed)!;
    for (const role of closed) expect(none.description).not.toContain(`- ${role.name}: `);
    expect(none.description).toMatch(/none takes a task from the model/);
    expect((none.inputSchema.properties as Record<string, { enum?: string[] }>).role!.enum).toBeUndefined();
    expect(
      prepareDelegation({ role: closed[0]!.name, task: "x" }, { roles: closed, tools: [] }),
    ).toMatchObject({
      status: "error",
      error_type: "MODEL_INVOCATION_DISABLED",
    });
  });

  it("prepareDelegation resolves the sub-agent and emits an event", () => {
    const events = memoryEventSink();
    const result = prepareDelegation(
      { role: "reviewer", task: "  Review src/a.ts  " },
      {
        roles,
        tools: [...DEEPAGENTS_TOOLS, DELEGATE_TOOL],
        events,
        now: () => new Date("2026-11-30T10:00:00Z"),
        timeZone: "UTC",
      },
    );
    if (result.status !== "success") throw new Error(result.message);
    expect(result.data.task).toBe("Review src/a.ts");
    expect(result.data.tools).toEqual(["ls", "read_file", "glob", "grep", "web_search"]);
    expect(result.data.instructions.startsWith("Today is Monday, 2026-11-30 (UTC).")).toBe(true);
    expect(result.data.instructions).toContain("# Reviewer");
    expect(events.events).toEqual([
      {
        type: "delegated",
        at: "2026-11-30T10:00:00.000Z",
        role: "reviewer",
        task: "Review src/a.ts",
        tools: ["ls", "read_file", "glob", "grep", "web_search"],
      },
    ]);
  });

  it("roleAgentSpec builds a role agent ahead exactly as a delegation does, without a task or an event", () => {
    const events = memoryEventSink();
    let today = new Date("2026-11-30T10:00:00Z");
    const options = { now: () => today, timeZone: "UTC" };
    const spec = roleAgentSpec(roles[2]!, [...DEEPAGENTS_TOOLS, DELEGATE_TOOL], options);
    const delegated = prepareDelegation(
      { role: "reviewer", task: "Review src/a.ts" },
      { roles, tools: [...DEEPAGENTS_TOOLS, DELEGATE_TOOL], events, ...options },
    );
    if (delegated.status !== "success") throw new Error(delegated.message);
    expect(spec.tools).toEqual(delegated.data.tools);
    expect(spec.maxSteps).toBe(delegated.data.maxSteps);
    expect(spec.instructions()).toBe(delegated.data.instructions);
    // Built ahead, the agent runs on later days: the date line is read per call.
    today = new Date("2026-12-01T10:00:00Z");
    expect(spec.instructions().startsWith("Today is Tuesday, 2026-12-01 (UTC).")).toBe(true);
    expect(roleAgentSpec(roles[2]!, DEEPAGENTS_TOOLS, { maxSteps: 3 }).maxSteps).toBe(3);
    expect(events.events).toHaveLength(1);
  });

  it("the delegation tool never takes a host tool's name", () => {
    const spec = delegationToolSpec(roles, { tools: ["read_file", DELEGATE_TOOL] })!;
    expect(spec.name).not.toBe(DELEGATE_TOOL);
    expect(spec.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(delegationToolSpec(roles, { tools: ["read_file", DELEGATE_TOOL] })!.name).toBe(spec.name);
    expect(delegationToolSpec(roles, { tools: ["read_file"] })!.name).toBe(DELEGATE_TOOL);
    // ...and the renamed tool is still kept from sub-agents.
    const open: Role = { name: "any", description: "d", instructions: "i", scope: "project", file: "f" };
    expect(resolveRoleTools(open, ["read_file", spec.name]).tools).toEqual(["read_file"]);
  });

  it("never hands the delegation tool itself to a sub-agent", () => {
    const open: Role = { name: "any", description: "d", instructions: "i", scope: "project", file: "f" };
    expect(resolveRoleTools(open, ["read_file", DELEGATE_TOOL]).tools).toEqual(["read_file"]);
    expect(resolveRoleTools(open, ["read_file", "spawn"], { exclude: ["spawn"] }).tools).toEqual([
      "read_file",
    ]);
  });

  it("maps through the host's aliases and reports unknown names", () => {
    const role: Role = {
      name: "ops",
      description: "d",
      instructions: "i",
      allowedTools: ["Bash", "Kubectl"],
      scope: "project",
      file: "/p/ops/SKILL.md",
    };
    const { tools, diagnostics } = resolveRoleTools(role, ["sh", "read_file"], {
      toolAliases: { Bash: "sh" },
    });
    expect(tools).toEqual(["sh"]);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ code: "unknown-tool", file: "/p/ops/SKILL.md" });
  });

  it("errors are results the lead model can act on", () => {
    const options = { roles, tools: DEEPAGENTS_TOOLS };
    expect(prepareDelegation({ role: "pilot", task: "fly" }, options)).toMatchObject({
      status: "error",
      error_type: "UNKNOWN_ROLE",
      message: expect.stringContaining("researcher, developer, reviewer"),
    });
    expect(prepareDelegation({ role: "reviewer" }, options)).toMatchObject({
      status: "error",
      error_type: "INVALID_ARGUMENTS",
    });
    expect(prepareDelegation("nonsense", options)).toMatchObject({
      status: "error",
      error_type: "INVALID_ARGUMENTS",
    });
  });
});
