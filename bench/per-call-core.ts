// Core alone, no framework: a new request's work as an adapter does it on its first model call —
// `refresh()`, `openSession({ history, tools })`, `plan()` — over every bench request, made
// distinct per round so no request is served from another's memo. Prints one JSON line: p50
// and mean of each part's process CPU time and of the whole call's wall time (ms), and the load.
// The first round warms up and is not counted.
// Usage: per-call-core.ts <skills dir> <messages.json> [rounds]; SKILLSHELF_CORE=<dist/index.js>
// measures another build.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const { createShelf } = (await import(
  process.env.SKILLSHELF_CORE ?? "@skillshelf/core"
)) as typeof import("@skillshelf/core");
const [dir, messagesFile, roundsArg] = process.argv.slice(2);
if (!dir || !messagesFile) throw new Error("usage: per-call-core.ts <skills dir> <messages.json> [rounds]");
const rounds = Number(roundsArg ?? 5);
const messages = JSON.parse(fs.readFileSync(messagesFile, "utf8")) as string[];
const TOOLS = ["read_file", "write_file", "edit_file", "ls", "grep", "execute", "web_search"];

const root = fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-bench-per-call-core-"));
const shelf = await createShelf({ root, projectDirs: [dir], userDirs: [] });
const cpuMs = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};
const parts = { refresh: [] as number[], openSession: [] as number[], plan: [] as number[] };
const wall: number[] = [];
for (let round = 0; round < rounds; round++) {
  for (const [i, request] of messages.entries()) {
    const message = `${request} (${round}.${i})`;
    const start = performance.now();
    const c0 = cpuMs();
    await shelf.refresh();
    const c1 = cpuMs();
    const session = await shelf.openSession({
      tools: TOOLS,
      history: [
        { kind: "user", text: "Hi, I am working on our project today." },
        { kind: "user", text: message },
      ],
    });
    const c2 = cpuMs();
    session.plan();
    const c3 = cpuMs();
    if (round === 0) continue;
    wall.push(performance.now() - start);
    parts.refresh.push(c1 - c0);
    parts.openSession.push(c2 - c1);
    parts.plan.push(c3 - c2);
  }
}
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const mean = (xs: number[]) => xs.reduce((sum, x) => sum + x, 0) / xs.length;
const summary = (xs: number[]) => ({ p50: +p50(xs).toFixed(3), mean: +mean(xs).toFixed(3) });
console.log(
  JSON.stringify({
    skills: shelf.skills().length,
    calls: wall.length,
    cpu: Object.fromEntries(Object.entries(parts).map(([name, xs]) => [name, summary(xs)])),
    wall: summary(wall),
    load: fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" "),
  }),
);
await shelf.close();
fs.rmSync(root, { recursive: true, force: true });
