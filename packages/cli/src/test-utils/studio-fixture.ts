// A shelf for the studio's tests, in a fresh temp folder: real skills from the shared corpus,
// one CJK skill with an exclusion (for a veto), one hostile skill whose text is markup and
// terminal controls, one file that does not parse, and pending proposals made the way an
// app makes them (tests only).
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createShelf, type Generate, type ImprovementProposal } from "@skillshelf/core";
import { sharedData } from "@skillshelf/test-utils";

const CORPUS = sharedData("skills-corpus/anthropics--skills/skills/");

export const OLD_STEP = "1. **Identify the communication type** from the request";
export const NEW_STEP = "1. **Identify the communication type and its audience** from the request";
export const OLD_CLARIFY = "ask for clarification or more context about the desired format.";
export const NEW_CLARIFY = "ask who will read it, then for more context about the desired format.";

/** Markup, an escape sequence and a bidi override: none may act in the page. */
export const HOSTILE =
  '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>\u001b[31mred\u202eevil';

export const TRANSCRIPT = [
  { role: "user", content: "Write the weekly update." },
  { role: "assistant", content: "(a technical update)" },
  { role: "user", content: "Hmm. This was meant for the leadership team, not engineers." },
  { role: "user", content: HOSTILE },
];

export interface StudioFixture {
  root: string;
  home: string;
  skillFile(name: string): string;
  proposals: ImprovementProposal[];
  cleanup(): Promise<void>;
}

const modelSays =
  (proposals: object[]): Generate =>
  async () =>
    `\`\`\`json\n${JSON.stringify({ proposals })}\n\`\`\``;

async function put(root: string, name: string, text: string): Promise<void> {
  const dir = path.join(root, ".skillshelf", "skills", name);
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, "SKILL.md"), text);
}

export async function createStudioFixture(): Promise<StudioFixture> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "skillshelf-studio-")));
  const home = path.join(root, "home");
  await fs.mkdir(home);
  for (const name of ["internal-comms", "mcp-builder", "webapp-testing"]) {
    await put(root, name, await fs.readFile(path.join(CORPUS, name, "SKILL.md"), "utf8"));
  }
  await put(
    root,
    "wechat-article",
    "---\nname: wechat-article\ndescription: 写公众号文章。\ntriggers: [写*文章, 公众号]\nexclusions: [写作技巧]\n---\n\nBody.\n",
  );
  await put(
    root,
    "hostile-note",
    `---\nname: hostile-note\ndescription: ${JSON.stringify(`Notes ${HOSTILE}`)}\n---\n\n${HOSTILE}\n`,
  );
  // On the disable list: listed (and marked), served to nothing.
  await put(
    root,
    "old-notes",
    "---\nname: old-notes\ndescription: Retired note-taking conventions.\n---\n\nBody.\n",
  );
  await fs.mkdir(path.join(root, ".skillshelf"), { recursive: true });
  await fs.writeFile(path.join(root, ".skillshelf", "config.json"), '{ "disabled": ["old-notes"] }\n');
  // A file that cannot load: the Shelf page lists it with its line and hint.
  await put(root, "broken-skill", "---\nname: broken-skill\ndescription: [never closed\n---\n\nBody.\n");
  const evidence = ["This was meant for the leadership team, not engineers."];
  const common = { change: "change", target: "step", evidence };
  const shelf = await createShelf({
    root,
    userDirs: [],
    events: false,
    generate: modelSays([
      {
        ...common,
        title: "Identify the audience too",
        rationale: "The update went to the wrong audience; naming it first avoids a rewrite.",
        edits: [{ before: OLD_STEP, after: NEW_STEP }],
      },
      {
        ...common,
        title: `Ask who reads it ${HOSTILE}`,
        rationale: `When unsure, ask about the readers first. ${HOSTILE}`,
        evidence: [...evidence, HOSTILE],
        edits: [{ before: OLD_CLARIFY, after: NEW_CLARIFY }],
      },
    ]),
  });
  // One managed write before the proposals, so webapp-testing has a version to roll back to.
  const webapp = shelf.get("webapp-testing");
  if (!webapp) throw new Error("fixture: webapp-testing did not load");
  const before = await fs.readFile(webapp.file, "utf8");
  await shelf.write("webapp-testing", `${before.trimEnd()}\n\nAdded by a managed write.\n`, {
    expectedHash: webapp.hash,
  });
  const { proposals } = await shelf.improvements.analyze({
    skill: "internal-comms",
    transcript: TRANSCRIPT,
    outcome: { status: "failure", feedback: "This was meant for the leadership team, not engineers." },
  });
  await shelf.close();
  if (proposals.length !== 2) throw new Error(`fixture: expected 2 proposals, got ${proposals.length}`);
  return {
    root,
    home,
    skillFile: (name) => path.join(root, ".skillshelf", "skills", name, "SKILL.md"),
    proposals,
    cleanup: () => fs.rm(root, { recursive: true, force: true }),
  };
}
