// Core alone, no framework: a new request's work as an adapter does it on its first model call —
// `refresh()`, `openSession({ history, tools })`, `plan()` — over every bench request, made
// distinct per round so no request is served from another's memo, then the host's first read
// of the whole system text (`read`: a text V8 keeps in pieces is copied whole there). Prints
// one JSON line: p50 and mean of each part's process CPU time, of their sum per call
// (`cpuTotal`) and of the whole call's wall time (ms), and the load.
// The first round warms up and is not counted.
// Usage: per-call-core.ts <skills dir> <messages.json> [rounds]; SKILLSHELF_CORE=<dist/index.js>
// measures another build; with SKILLSHELF_CORE_B=<dist/index.js> too, both builds run in one
// process taking turns per request (the order swapped every request), one line each.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const builds = [process.env.SKILLSHELF_CORE ?? "@skillshelf/core", process.env.SKILLSHELF_CORE_B].filter(
  (build): build is string => build !== undefined,
);
const [dir, messagesFile, roundsArg] = process.argv.slice(2);
if (!dir || !messagesFile) throw new Error("usage: per-call-core.ts <skills dir> <messages.json> [rounds]");
const rounds = Number(roundsArg ?? 5);
const messages = JSON.parse(fs.readFileSync(messagesFile, "utf8")) as string[];
const TOOLS = ["read_file", "write_file", "edit_file", "ls", "grep", "execute", "web_search"];

const cpuMs = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};
const runs = await Promise.all(
  builds.map(async (build) => {
    const { createShelf } = (await import(build)) as typeof import("@skillshelf/core");
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "skillshelf-bench-per-call-core-"));
    const shelf = await createShelf({ root, projectDirs: [dir], userDirs: [] });
    return {
      build,
      root,
      shelf,
      parts: {
        refresh: [] as number[],
        openSession: [] as number[],
        plan: [] as number[],
        read: [] as number[],
      },
      wall: [] as number[],
    };
  }),
);
for (let round = 0; round < rounds; round++) {
  for (const [i, request] of messages.entries()) {
    const message = `${request} (${round}.${i})`;
    // Two builds take turns, first one then the other, so both see the same noise.
    const order = i % 2 === 0 ? runs : [...runs].reverse();
    for (const run of order) {
      const { shelf, parts, wall } = run;
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
      const plan = session.plan();
      const c3 = cpuMs();
      // The host's first read of the whole system text (a search for a character it never
      // holds): a text kept in pieces is copied whole here, as a model request would.
      if (plan.system.indexOf("\u0000") >= 0) throw new Error("unexpected NUL in the system text");
      const c4 = cpuMs();
      if (round === 0) continue;
      wall.push(performance.now() - start);
      parts.refresh.push(c1 - c0);
      parts.openSession.push(c2 - c1);
      parts.plan.push(c3 - c2);
      parts.read.push(c4 - c3);
    }
  }
}
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const mean = (xs: number[]) => xs.reduce((sum, x) => sum + x, 0) / xs.length;
const summary = (xs: number[]) => ({ p50: +p50(xs).toFixed(3), mean: +mean(xs).toFixed(3) });
const results = runs.map(({ build, shelf, parts, wall }) => ({
  ...(runs.length > 1 && { build }),
  skills: shelf.skills().length,
  calls: wall.length,
  cpu: Object.fromEntries(Object.entries(parts).map(([name, xs]) => [name, summary(xs)])),
  // The whole call's process CPU (the four parts summed per call).
  cpuTotal: summary(
    parts.refresh.map(
      (x, k) => x + (parts.openSession[k] as number) + (parts.plan[k] as number) + (parts.read[k] as number),
    ),
  ),
  wall: summary(wall),
}));
const load = fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
for (const result of results) console.log(JSON.stringify({ ...result, load }));
for (const { shelf, root } of runs) {
  await shelf.close();
  fs.rmSync(root, { recursive: true, force: true });
}
