/**
 * A role whose file says `disable-model-invocation: true`: the model must not start it
 * through the delegation tool (by its name, a case variant, or through a nested delegation),
 * and the tool does not list it.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hostDelegationSpec, runDelegation } from "../adapter-kit/delegation.js";
import { createShelf, type Shelf } from "../shelf.js";

const TOOLS = ["read_file", "send_email"];
const role = (name: string, fields: string) =>
  `---\nname: ${name}\ndescription: The ${name} role.\nrole: true\n${fields}\n---\nDo the ${name}'s job.\n`;

let root: string;
let shelf: Shelf;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "skillshelf-user-only-role-"));
  for (const [name, text] of [
    ["courier", role("courier", "disable-model-invocation: true\nallowed-tools: read_file send_email")],
    ["reader", role("reader", "allowed-tools: read_file")],
    [
      "dispatch",
      "---\nname: dispatch\ndescription: Dispatch the report.\ncontext: fork\nagent: courier\n---\nDispatch it.\n",
    ],
  ] as const) {
    await mkdir(path.join(root, ".skillshelf", "skills", name), { recursive: true });
    await writeFile(path.join(root, ".skillshelf", "skills", name, "SKILL.md"), text);
  }
  shelf = await createShelf({ root, userDirs: [], events: false, builtinRoles: false });
});
afterEach(async () => {
  await shelf.close();
  await rm(root, { recursive: true, force: true });
});

describe("a user-only role", () => {
  it("is refused to the model's delegation call", () => {
    expect(shelf.prepareDelegation({ role: "courier", task: "mail the report" }, TOOLS)).toMatchObject({
      status: "error",
      error_type: "MODEL_INVOCATION_DISABLED",
    });
  });

  it("is not listed by the delegation tool, nor named in its errors", () => {
    const spec = hostDelegationSpec(shelf.roles(), TOOLS);
    expect(spec.description).not.toContain("courier");
    const unknown = shelf.prepareDelegation({ role: "Courier", task: "x" }, TOOLS);
    expect(unknown).toMatchObject({ status: "error", error_type: "UNKNOWN_ROLE" });
    expect(JSON.stringify(unknown)).not.toContain("courier");
  });

  it("is refused inside another delegation too", async () => {
    let inner: unknown;
    await runDelegation(
      shelf,
      { role: "reader", task: "read" },
      {
        tools: TOOLS,
        run: async () => {
          inner = shelf.prepareDelegation({ role: "courier", task: "mail it" }, TOOLS);
          return "done";
        },
      },
    );
    expect(inner).toMatchObject({ status: "error", error_type: "MODEL_INVOCATION_DISABLED" });
  });

  it("an ordinary role still runs (unchanged)", () => {
    expect(shelf.prepareDelegation({ role: "reader", task: "read" }, TOOLS)).toMatchObject({
      status: "success",
      data: { tools: ["read_file"] },
    });
  });

  it("is not started as a forked skill's agent by the model; the user's /name still runs it", () => {
    const session = shelf.session({ message: "dispatch the report", tools: TOOLS });
    session.plan();
    const call = { id: "f", name: "skill_dispatch", input: {} };
    session.respond([call]);
    expect(session.fork(call)).toBeUndefined();
    expect(session.callSkillTool(call)).toMatchObject({
      status: "error",
      error_type: "MODEL_INVOCATION_DISABLED",
    });
    const asked = shelf.session({ message: "/dispatch", tools: TOOLS });
    asked.plan();
    const run = { id: "g", name: "skill_dispatch", input: {} };
    asked.respond([run]);
    expect(asked.fork(run)?.role).toBe("courier");
  });
});
