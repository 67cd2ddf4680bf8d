// What a hostile skill's `paths` globs cost the host, for two (or more) core builds taking turns
// in 5 rounds, each case in a fresh child process (compiled globs are cached per process):
// 32 globs of `{1..255}` × 31 ("ranges"), 32 globs of `*a` × 126 ("stars") tried on 64
// mentioned paths of 512 characters, and one usual glob on 3 short paths. Per case: compiling
// the skill's globs, the first plan's match, and a later plan's (median of 5). Wall / CPU time
// (CPU counts every thread), the load average before and after. Read the ratio, not the figures.
// Usage: node --experimental-strip-types --no-warnings path-glob-budget.ts <core dist dir> <core dist dir> …
import { execFileSync } from "node:child_process";
import os from "node:os";

const dists = process.argv.slice(2);
if (process.env.PATH_GLOB_BUDGET_CHILD) {
  const { matchesSkillPaths } = (await import(`${dists[0]}/parse/path-globs.js`)) as {
    matchesSkillPaths: (skill: { paths: string[] }, files: string[]) => boolean;
  };
  matchesSkillPaths({ paths: ["warm/*.x"] }, ["warm/a.x"]); // loads RE2 and warms its compiler
  const globs = (unit: string, n: number) => Array.from({ length: 32 }, (_, i) => unit.repeat(n) + i);
  const long = Array.from({ length: 64 }, (_, i) => `${"a".repeat(500)}${i}.ts`);
  const time = (run: () => void): [number, number] => {
    const cpu = process.cpuUsage();
    const start = performance.now();
    run();
    const used = process.cpuUsage(cpu);
    return [performance.now() - start, (used.user + used.system) / 1000];
  };
  const skill = { ranges: globs("{1..255}", 31), stars: globs("*a", 126), usual: ["src/**/*.{ts,tsx}"] }[
    process.env.PATH_GLOB_BUDGET_CHILD as "ranges" | "stars" | "usual"
  ];
  const files = skill.length > 1 ? long : ["src/a/b.ts", "README.md", "lib/x.js"];
  const compile = time(() => matchesSkillPaths({ paths: skill }, ["x"]));
  const first = time(() => matchesSkillPaths({ paths: skill }, files));
  const kept = { paths: skill };
  matchesSkillPaths(kept, ["x"]);
  const later = Array.from({ length: 5 }, () => time(() => matchesSkillPaths(kept, files)));
  console.log(JSON.stringify({ compile, first, later: later.sort((a, b) => a[0] - b[0])[2] }));
} else {
  console.log(
    `load before ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  const rows = new Map<string, Map<string, Array<[number, number]>>>();
  for (let round = 0; round < 5; round++) {
    for (const dist of dists) {
      for (const kind of ["usual", "stars", "ranges"]) {
        const text = execFileSync(
          process.execPath,
          ["--experimental-strip-types", "--no-warnings", import.meta.filename, dist],
          {
            env: { ...process.env, PATH_GLOB_BUDGET_CHILD: kind },
            encoding: "utf8",
          },
        );
        for (const [step, figures] of Object.entries(JSON.parse(text) as Record<string, [number, number]>)) {
          const label = `${kind}: ${step}`;
          if (!rows.has(label)) rows.set(label, new Map());
          const perBuild = rows.get(label)!;
          if (!perBuild.has(dist)) perBuild.set(dist, []);
          perBuild.get(dist)!.push(figures);
        }
      }
    }
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(`| case | ${dists.map((d) => `${d} wall / CPU ms (median of 5)`).join(" | ")} |`);
  console.log(`|---|${dists.map(() => "---:").join("|")}|`);
  for (const [label, perBuild] of rows) {
    const cells = dists.map((d) => {
      const runs = perBuild.get(d)!;
      return `${median(runs.map((r) => r[0])).toFixed(2)} / ${median(runs.map((r) => r[1])).toFixed(1)}`;
    });
    console.log(`| ${label} | ${cells.join(" | ")} |`);
  }
  console.log(
    `load after ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
}
