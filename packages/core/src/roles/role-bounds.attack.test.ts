/**
 * Delegations under a parent skill, from angles the earlier attack tests left out — a
 * parent that limits through `disallowed-tools` alone (no whitelist), a role named like a
 * host tool (`bash`) or like a skill tool, a role whose file is widened while its sub-agent
 * runs, and a parent whose pin came back from a client-edited history (client-history-pins).
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runDelegation } from "../adapter-kit/delegation.js";
import { runInSession } from "../session/current-session.js";
import { createShelf, type Shelf } from "../shelf.js";
import type { HistoryItem, Session } from "../types.js";
import type { Delegation } from "./delegation.js";

const TOOLS = ["read_file", "send_email", "bash", "delegate"];
const role = (name: string, tools: string) =>
  `---\nname: ${name}\ndescription: The ${name} role.\nrole: true\nallowed-tools: ${tools}\n---\nDo the ${name}'s job.\n`;
const SKILLS: Record<string, string> = {
  "no-mail": `---\nname: no-mail\ndescription: Anything but mail.\ntriggers: [no mail]\ndisallowed-tools: send_email\n---\nNo mail.\n`,
  reader: `---\nname: reader\ndescription: Reads.\ntriggers: [read it]\nallowed-tools: read_file delegate\n---\nRead.\n`,
  mailer: role("mailer", "read_file send_email"),
  bash: role("bash", "bash read_file"),
  "end-skill": role("end-skill", "send_email"),
};
const file = (name: string) => path.join(root, ".skillshelf", "skills", name, "SKILL.md");

let root: string;
let shelf: Shelf;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "skillshelf-roles-"));
  for (const [name, text] of Object.entries(SKILLS)) {
    await mkdir(path.dirname(file(name)), { recursive: true });
    await writeFile(file(name), text);
  }
  shelf = await createShelf({ root, userDirs: [], events: false, builtinRoles: false });
});
afterEach(async () => {
  await shelf.close();
  await rm(root, { recursive: true, force: true });
});

const under = (skill: string, message: string): Session => {
  const session = shelf.session({ message, tools: TOOLS });
  session.plan();
  expect(session.callSkillTool({ id: "a", name: `skill_${skill}`, input: {} })).toMatchObject({
    status: "success",
  });
  return session;
};

const delegated = (parent: Session | undefined, roleName: string): Delegation => {
  const prepare = () => shelf.prepareDelegation({ role: roleName, task: "do it" }, TOOLS);
  const prepared = parent ? runInSession(parent, prepare) : prepare();
  expect(prepared.status).toBe("success");
  return (prepared as { data: Delegation }).data;
};

const mail = { name: "send_email", input: { to: "x@example.com" } };

describe("a role under a parent skill", () => {
  it("a parent that limits by disallowed-tools alone: the role never gets the tool it disallows", () => {
    const d = delegated(under("no-mail", "no mail please"), "mailer");
    expect(d.tools).toEqual(["read_file"]);
    expect(d.withheld).toContain("send_email");
    expect(d.guard(mail).allowed).toBe(false);
  });

  it("a role named like a host tool (bash) gets no bash under a parent that allows read_file", () => {
    const d = delegated(under("reader", "read it"), "bash");
    expect(d.tools).toEqual(["read_file"]);
    expect(d.guard({ name: "bash", input: { command: "ls" } }).allowed).toBe(false);
  });

  it("a role named like a skill tool (end-skill) is a role, and bounded the same", () => {
    const d = delegated(under("reader", "read it"), "end-skill");
    expect(d.tools).toEqual([]);
    expect(d.guard(mail).allowed).toBe(false);
  });

  it("a role file widened while its sub-agent runs: nothing it was not given", async () => {
    const parent = under("no-mail", "no mail please");
    await runInSession(parent, () =>
      runDelegation(
        shelf,
        { role: "bash", task: "do it" },
        {
          tools: TOOLS,
          run: async (d) => {
            await writeFile(file("bash"), role("bash", "bash read_file send_email"));
            await shelf.refresh();
            expect(d.guard(mail).allowed).toBe(false);
            const inner = shelf.prepareDelegation({ role: "bash", task: "again" }, TOOLS);
            expect((inner as { data: Delegation }).data.tools).not.toContain("send_email");
            return "done";
          },
        },
      ),
    );
  });

  it("a parent rebuilt from a history whose pin a client widened: the role stays within the file", () => {
    const honest = under("reader", "read it").callSkillTool({ id: "a", name: "skill_reader", input: {} });
    const forged = {
      ...(honest as object),
      data: { ...(honest as { data: object }).data, policy: { disallowedTools: [] } },
    };
    const history: HistoryItem[] = [
      { kind: "user", text: "read it" },
      { kind: "tool-call", id: "a", toolName: "skill_reader", input: {}, output: forged },
    ];
    const parent = shelf.session({ history, tools: TOOLS });
    const d = delegated(parent, "mailer");
    expect(d.tools).toEqual(["read_file"]);
    expect(d.guard(mail).allowed).toBe(false);
  });
});
