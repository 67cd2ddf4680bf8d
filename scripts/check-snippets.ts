/**
 * Every ```ts snippet of every README compiles in a strict consumer project that installs
 * the packed packages (what a user gets from the registry, not the workspace sources), and
 * a CommonJS consumer is refused at type-check time, before it could crash at run time.
 *
 *   node scripts/check-snippets.ts        (after the packages are built: scripts/setup.sh)
 *
 * A snippet is checked as one module. Two HTML comments, placed right before a fence and
 * invisible on GitHub, adapt one that is a fragment:
 *
 *   <!-- snippet-context
 *   import { createShelf } from "@skillshelf/core";
 *   declare const tools: StructuredTool[];
 *   -->
 *   ```ts                 the context is prepended (for names the prose introduced earlier)
 *
 *   <!-- snippet-skip: an overview of three frameworks in one block -->
 *   ```ts                 not compiled; the reason is required
 *
 * Next.js's `@/` alias resolves to stubs (`@/lib/tools`: an AI SDK ToolSet).
 * Errors are reported at the README line they come from. SNIPPETS_KEEP=1 keeps the project.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** Every workspace package (folder names under packages/), packed as a user would get it. */
const PACKAGES = readdirSync(join(ROOT, "packages")).filter((name) => {
  try {
    readFileSync(join(ROOT, "packages", name, "package.json"));
    return true;
  } catch {
    return false;
  }
});
/** Published packages (not private): a CommonJS consumer must be refused for each. */
const PUBLISHED = PACKAGES.filter(
  (name) => !JSON.parse(readFileSync(join(ROOT, "packages", name, "package.json"), "utf8")).private,
);

interface Snippet {
  readme: string;
  /** 1-based README line of the first code line. */
  line: number;
  code: string;
  context: string;
}

function readmes(): string[] {
  const found = ["README.md"];
  for (const dir of ["packages", "apps"]) {
    for (const name of readdirSync(join(ROOT, dir))) {
      try {
        readFileSync(join(ROOT, dir, name, "README.md"));
        found.push(`${dir}/${name}/README.md`);
      } catch {
        // a folder without a README
      }
    }
  }
  return found;
}

function extract(readme: string): { snippets: Snippet[]; problems: string[] } {
  const lines = readFileSync(join(ROOT, readme), "utf8").split("\n");
  const snippets: Snippet[] = [];
  const problems: string[] = [];
  let context = "";
  let skip: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i] ?? "";
    if (text.startsWith("<!-- snippet-context")) {
      const end = lines.findIndex((l, j) => j > i && l.trim() === "-->");
      if (end < 0) problems.push(`${readme}:${i + 1}: snippet-context without a closing -->`);
      context = lines.slice(i + 1, end).join("\n");
      i = end;
      continue;
    }
    const skipped = /^<!-- snippet-skip:\s*(.*?)\s*-->/.exec(text);
    if (skipped) {
      if (!skipped[1]) problems.push(`${readme}:${i + 1}: snippet-skip needs a reason`);
      skip = skipped[1];
      continue;
    }
    if (/^```(ts|typescript)\s*$/.test(text)) {
      const end = lines.findIndex((l, j) => j > i && l.startsWith("```"));
      if (skip === undefined) {
        snippets.push({ readme, line: i + 2, code: lines.slice(i + 1, end).join("\n"), context });
      }
      context = "";
      skip = undefined;
      i = end;
      continue;
    }
    // A marker applies to the fence right after it (blank lines allowed), never further.
    if (text.trim() !== "" && (context || skip !== undefined)) {
      problems.push(`${readme}:${i + 1}: a snippet marker must be followed by a \`\`\`ts fence`);
      context = "";
      skip = undefined;
    }
  }
  return { snippets, problems };
}

function run(command: string, args: string[], cwd: string): { status: number; output: string } {
  const result = spawnSync(command, args, { cwd, encoding: "utf8" });
  return { status: result.status ?? 1, output: `${result.stdout}${result.stderr}` };
}

const work = mkdtempSync(join(tmpdir(), "skillshelf-snippets-"));
const failures: string[] = [];
try {
  // 1. The packages as published.
  const packs = join(work, "packs");
  mkdirSync(packs);
  const tarballs = new Map<string, string>();
  for (const name of PACKAGES) {
    const before = new Set(readdirSync(packs));
    execFileSync("pnpm", ["pack", "--pack-destination", packs], {
      cwd: join(ROOT, "packages", name),
      stdio: "ignore",
    });
    const file = readdirSync(packs).find((f) => !before.has(f));
    if (!file) throw new Error(`pnpm pack wrote nothing for ${name}`);
    tarballs.set(`@skillshelf/${name}`, `file:${join(packs, file)}`);
  }

  // 2. A consumer project: the frameworks at the versions the adapters are developed with.
  const devVersions: Record<string, string> = {};
  for (const name of ["langchain", "ai-sdk", "mastra"]) {
    const manifest = JSON.parse(readFileSync(join(ROOT, "packages", name, "package.json"), "utf8"));
    Object.assign(devVersions, manifest.devDependencies);
  }
  const rootManifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  const frameworks = [
    "langchain",
    "@langchain/core",
    "@langchain/langgraph",
    "@langchain/openai",
    "ai",
    "@ai-sdk/openai-compatible",
    "@mastra/core",
    "zod",
  ];
  const dependencies: Record<string, string> = Object.fromEntries(tarballs);
  for (const name of frameworks) dependencies[name] = devVersions[name] ?? "latest";
  writeFileSync(
    join(work, "package.json"),
    JSON.stringify({
      name: "snippet-consumer",
      private: true,
      type: "module",
      dependencies,
      devDependencies: {
        typescript: rootManifest.devDependencies.typescript,
        "@types/node": rootManifest.devDependencies["@types/node"],
      },
      // The packed adapters depend on @skillshelf/core by version: point it at the tarball.
      pnpm: { overrides: Object.fromEntries(tarballs) },
    }),
  );
  writeFileSync(join(work, "pnpm-workspace.yaml"), "packages: []\n");
  const install = run(
    "pnpm",
    ["install", "--prefer-offline", "--config.strict-peer-dependencies=false", "--reporter=silent"],
    work,
  );
  if (install.status !== 0) throw new Error(`install failed:\n${install.output}`);

  // 3. The snippets, strict.
  const snippetDir = join(work, "snippets");
  mkdirSync(snippetDir);
  const origin = new Map<string, Snippet>();
  let count = 0;
  let skipped = 0;
  for (const readme of readmes()) {
    const { snippets, problems } = extract(readme);
    failures.push(...problems);
    const text = readFileSync(join(ROOT, readme), "utf8");
    skipped += (text.match(/^<!-- snippet-skip:/gm) ?? []).length;
    for (const snippet of snippets) {
      const file = `${readme.replace(/[/.]/g, "_")}_L${snippet.line}.ts`;
      // export {}: a module, so top-level await and names repeated across snippets are fine.
      const body = snippet.context ? `${snippet.context}\n${snippet.code}` : snippet.code;
      writeFileSync(join(snippetDir, file), `${body}\nexport {};\n`);
      origin.set(file, snippet);
      count++;
    }
  }
  // Next.js's "@/" alias, as the route examples use it: "@/lib/tools" is a set of AI SDK tools.
  mkdirSync(join(work, "stubs", "lib"), { recursive: true });
  writeFileSync(
    join(work, "stubs", "lib", "tools.ts"),
    'import type { ToolSet } from "ai";\nexport const tools: ToolSet = {};\n',
  );
  const compilerOptions = {
    target: "ES2023",
    lib: ["ES2023", "DOM"],
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ["node"],
    paths: { "@/*": ["./stubs/*.ts"] },
  };
  writeFileSync(join(work, "tsconfig.json"), JSON.stringify({ compilerOptions, include: ["snippets"] }));
  const tsc = join(work, "node_modules", ".bin", "tsc");
  const checked = run(tsc, ["-p", "tsconfig.json"], work);
  if (checked.status !== 0) {
    for (const line of checked.output.split("\n")) {
      const located = /^snippets\/([^(]+)\((\d+),(\d+)\): (.*)$/.exec(line);
      const snippet = located && origin.get(located[1] ?? "");
      if (!located || !snippet) {
        if (line.trim()) failures.push(`  ${line}`);
        continue;
      }
      const contextLines = snippet.context ? snippet.context.split("\n").length : 0;
      const at = Number(located[2]) - contextLines;
      const where =
        at > 0
          ? `${snippet.readme}:${snippet.line + at - 1}`
          : `${snippet.readme}:${snippet.line} (its snippet-context)`;
      failures.push(`${where}: ${located[4]}`);
    }
  }
  console.log(`README snippets: ${count} compiled, ${skipped} skipped by snippet-skip`);

  // 4. ESM only, said by the types: a CommonJS consumer must fail tsc, and ESM imports run.
  const cjsDir = join(work, "cjs");
  mkdirSync(cjsDir);
  writeFileSync(join(cjsDir, "package.json"), JSON.stringify({ type: "commonjs" }));
  writeFileSync(
    join(cjsDir, "consumer.ts"),
    PUBLISHED.map((name, i) => `import * as p${i} from "@skillshelf/${name}";\nvoid p${i};\n`).join(""),
  );
  writeFileSync(join(cjsDir, "tsconfig.json"), JSON.stringify({ compilerOptions, include: ["consumer.ts"] }));
  const cjs = run(tsc, ["-p", "cjs/tsconfig.json"], work);
  for (const name of PUBLISHED) {
    if (!new RegExp(`error TS\\d+: .*@skillshelf/${name}['"]`).test(cjs.output)) {
      failures.push(
        `a CommonJS consumer type-checks an import of @skillshelf/${name} (it must fail: ESM only)`,
      );
    }
  }
  const esm = run(
    "node",
    ["--input-type=module", "-e", PUBLISHED.map((name) => `await import("@skillshelf/${name}");`).join("")],
    work,
  );
  if (esm.status !== 0) failures.push(`importing the packed packages failed:\n${esm.output}`);
  console.log("CommonJS consumer: refused by tsc; ESM imports of the packed packages run");
} finally {
  // biome-ignore lint/suspicious/noUndeclaredEnvVars: a debugging switch of a script turbo never runs
  if (process.env.SNIPPETS_KEEP === "1") console.log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}

if (failures.length > 0) {
  console.error(failures.join("\n"));
  process.exit(1);
}
