// Core alone, no framework: the two model calls of an activation turn as an adapter makes them —
// a session plans a new request and the model's skill-tool call activates the skill it offers,
// then a session rebuilt from that state plans the same request again. Prints one JSON line:
// p50 and mean process CPU time (ms) of each call, over every request the plan offers a skill
// tool for, each made distinct per round so no turn is served from another turn's memo.
// Usage: per-call-activation-core.ts <skills dir> <messages.json> [rounds];
// SKILLSHELF_CORE=<dist/index.js> measures another build.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const { createShelf } = (await import(
  process.env.SKILLSHELF_CORE ?? "@skillshelf/core"
)) as typeof import("@skillshelf/core");
const [dir, messagesFile, roundsArg] = process.argv.slice(2);
if (!dir || !messagesFile)
  throw new Error("usage: per-call-activation-core.ts <skills dir> <messages.json> [rounds]");
const rounds = Number(roundsArg ?? 3);
const messages = JSON.parse(fs.readFileSync(messagesFile, "utf8")) as string[];
const TOOLS = ["read_file", "write_file", "edit_file", "ls", "grep", "execute", "web_search"];

const root = fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-bench-activation-core-"));
const shelf = await createShelf({ root, projectDirs: [dir], userDirs: [] });
/** The skill tool a plan offers that activates in place (not a forked skill's sub-agent). */
const skillToolOf = (plan: { tools: ReadonlyArray<{ name: string }> }) =>
  plan.tools.find(
    (t) => t.name.startsWith("skill_") && shelf.get(t.name.slice("skill_".length))?.context !== "fork",
  )?.name;
const activations: Array<{ message: string; tool: string }> = [];
for (const message of messages) {
  const tool = skillToolOf(shelf.session({ message, tools: TOOLS }).plan());
  if (tool) activations.push({ message, tool });
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const first: number[] = [];
const second: number[] = [];
let skipped = 0;
for (let round = 0; round < rounds; round++) {
  for (const [i, a] of activations.entries()) {
    const message = `${a.message} (${round}.${i})`;
    const start = cpuMs();
    const opening = shelf.session({ message, tools: TOOLS });
    // The plan of this turn's own request: since activations go only through offered tools,
    // the tool the plain request offered may not be offered once the usage order has moved.
    const tool = skillToolOf(opening.plan()) ?? a.tool;
    opening.callSkillTool({ id: `call-${round}-${i}`, name: tool, input: {} });
    const mid = cpuMs();
    if (opening.state.active.length === 0) {
      skipped++;
      continue;
    }
    shelf.session({ state: opening.state, message, tools: TOOLS }).plan();
    first.push(mid - start);
    second.push(cpuMs() - mid);
  }
}
const p50 = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] as number;
const mean = (xs: number[]) => xs.reduce((sum, x) => sum + x, 0) / xs.length;
console.log(
  JSON.stringify({
    skills: shelf.skills().length,
    calls: second.length,
    skipped,
    first: { p50: p50(first), mean: mean(first) },
    second: { p50: p50(second), mean: mean(second) },
    load: fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" "),
  }),
);
await shelf.close();
