/**
 * The disable list on real folders: a skill named in `.skillshelf/config.json` (or the
 * `disabled` option) is loaded and listed but never offered, matched or activatable; the
 * file is re-read at refresh; a broken file fails closed.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createShelf, type Shelf } from "../shelf.js";

const skill = (name: string, what: string) => `---
name: ${name}
description: ${what}. Use when the user asks to ${name}.
triggers: [${name}]
allowed-tools: bash
---
Do the ${name}.
`;
const TOOLS = ["bash", "read_file"];

let root: string;
let shelf: Shelf | undefined;

async function write(rel: string, text: string) {
  const file = path.join(root, rel);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
}
const config = (json: unknown) =>
  write(".skillshelf/config.json", typeof json === "string" ? json : JSON.stringify(json));
const open = async (options: Parameters<typeof createShelf>[0] = {}) => {
  shelf = await createShelf({ root, userDirs: [], events: false, builtinRoles: false, ...options });
  return shelf;
};
const offered = (s: Shelf, message: string) => {
  const plan = s.session({ message, tools: TOOLS }).plan();
  return plan.tools.map((t) => t.name).filter((n) => n.startsWith("skill_"));
};

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "skillshelf-disabled-"));
  await write(".skillshelf/skills/deploy/SKILL.md", skill("deploy", "Deploys the app"));
  await write(".skillshelf/skills/notes/SKILL.md", skill("notes", "Writes release notes"));
});
afterEach(async () => {
  await shelf?.close();
  shelf = undefined;
  await rm(root, { recursive: true, force: true });
});

describe("disabled skills", () => {
  it("are listed but never offered, matched or activatable (by the model or by /name)", async () => {
    await config({ disabled: ["deploy"] });
    const s = await open();
    expect(s.skills().map((k) => k.name)).toEqual(["deploy", "notes"]);
    expect(s.diagnostics().find((d) => d.code === "disabled")?.message).toContain('"deploy" is disabled');
    expect(offered(s, "deploy the app and the notes")).toEqual(["skill_notes"]);
    const system = s.session({ message: "deploy the app", tools: TOOLS }).plan().system;
    expect(system).not.toContain("deploy:");
    expect(system).toContain("notes:");
    expect(s.match("deploy the app").candidates.map((c) => c.name)).not.toContain("deploy");

    const session = s.session({ message: "deploy the app", tools: TOOLS });
    expect(session.callSkillTool({ name: "activate_skill", input: { name: "deploy" } })).toMatchObject({
      status: "error",
      error_type: "DISABLED",
      message: expect.stringContaining('"deploy" is turned off on this shelf'),
    });
    const command = s.session({ message: "/deploy now", tools: TOOLS }).plan();
    expect(command.explicit).toMatchObject({ status: "error", error_type: "DISABLED" });
    expect(command.system).toContain("turned off on this shelf");
    expect(command.system).not.toContain("Do the deploy");
    // Its whitelist applies to nothing.
    expect(command.allowedTools).toEqual(TOOLS);
  });

  it("the config file is read again at refresh: disable and enable reach a running shelf", async () => {
    const s = await open();
    expect(offered(s, "deploy the app")).toContain("skill_deploy");
    await config({ disabled: ["deploy"] });
    expect((await s.refresh()).changed).toBe(true);
    expect(offered(s, "deploy the app")).not.toContain("skill_deploy");
    await config({ disabled: [] });
    expect((await s.refresh()).changed).toBe(true);
    expect(offered(s, "deploy the app")).toContain("skill_deploy");
  });

  it("the disabled option adds to the file; config: false reads no file", async () => {
    await config({ disabled: ["deploy"] });
    const both = await open({ disabled: ["notes"] });
    expect(offered(both, "deploy the app and the notes")).toEqual([]);
    await both.close();
    const none = await open({ config: false });
    expect(offered(none, "deploy the app and the notes").sort()).toEqual(["skill_deploy", "skill_notes"]);
  });

  it("a config file that cannot be read fails closed: no skill from a folder is served, and an error says why", async () => {
    await config('{ "disabled": ["deploy", }');
    const s = await open({ builtinRoles: true });
    expect(offered(s, "deploy the app and the notes")).toEqual([]);
    expect(s.diagnostics().find((d) => d.code === "config-invalid")).toMatchObject({ severity: "error" });
    // Builtins come from the host's code, not the folders: they stay.
    expect(s.roles().length).toBeGreaterThan(0);
    await config({ disabled: ["deploy"] });
    await s.refresh();
    expect(offered(s, "deploy the app and the notes")).toEqual(["skill_notes"]);
  });

  it('"disabled" that is not a list of names is a broken file, not an empty list', async () => {
    await config({ disabled: "deploy" });
    const s = await open();
    expect(s.diagnostics().find((d) => d.code === "config-invalid")?.message).toContain(
      "list of skill names",
    );
    expect(offered(s, "deploy the app")).toEqual([]);
  });
});
