/**
 * A role whose file says `disable-model-invocation: true` is no agent an orchestrating model
 * may pick: `createRoleAgents` leaves it out, and an agent built before its file said so
 * runs nothing (core refuses the delegation on the run).
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTool } from "@mastra/core/tools";
import { createShelf, type Shelf } from "@skillshelf/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { createRoleAgents } from "./roles.js";
import { scriptedModel } from "./test-utils/model.js";

const role = (name: string, extra = "") =>
  `---\nname: ${name}\ndescription: The ${name} role.\nrole: true\n${extra}allowed-tools: read_file send_email\n---\nDo it.\n`;

let root: string;
let shelf: Shelf;
const file = (name: string) => join(root, ".skillshelf", "skills", name, "SKILL.md");
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "skillshelf-mastra-user-only-role-"));
  for (const [name, text] of [
    ["courier", role("courier", "disable-model-invocation: true\n")],
    ["helper", role("helper")],
  ] as const) {
    await mkdir(join(root, ".skillshelf", "skills", name), { recursive: true });
    await writeFile(file(name), text);
  }
  shelf = await createShelf({ root, userDirs: [], builtinRoles: false, events: false });
});
afterEach(async () => {
  await shelf.close();
  await rm(root, { recursive: true, force: true });
});

const send = vi.fn(async () => "sent");
const tools = () => ({
  read_file: createTool({
    id: "read_file",
    description: "Read.",
    inputSchema: z.object({}).passthrough(),
    execute: async () => "read",
  }),
  send_email: createTool({
    id: "send_email",
    description: "Send.",
    inputSchema: z.object({}).passthrough(),
    execute: send,
  }),
});

describe("a user-only role in Mastra", () => {
  it("createRoleAgents builds no agent for it", () => {
    const model = scriptedModel([{ text: "x" }]);
    const agents = createRoleAgents(shelf, {
      model: model.model,
      tools: tools(),
      onDiagnostic: () => undefined,
    });
    expect(Object.keys(agents)).toEqual(["helper"]);
  });

  it("an agent built before its file said so sends nothing on its next run", async () => {
    send.mockClear();
    const model = scriptedModel([{ calls: [["send_email", { to: "x@example.com" }]] }, { text: "Sent." }]);
    const agents = createRoleAgents(shelf, {
      model: model.model,
      tools: tools(),
      onDiagnostic: () => undefined,
    });
    await writeFile(file("helper"), role("helper", "disable-model-invocation: true\n"));
    await shelf.refresh({ full: true });
    try {
      await agents.helper!.generate("mail the report");
    } catch {
      // Refused: Mastra may report the abort as an error.
    }
    expect(send).not.toHaveBeenCalled();
  });
});
