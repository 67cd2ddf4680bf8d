/**
 * The routing datasets (../shared/data/routing, see each folder's NOTICE.md and README.md)
 * turned into skills and cases, with a fixed dev/test split:
 *
 * - MetaTool: the 199 tools of plugin_des.json become skills (name + description only).
 *   Test = Task1.json (520 labelled positives, 520 "no tool needed" negatives). Dev = 1,000
 *   queries of all_clean_data.csv (every 20th row, Task1 queries excluded); MetaTool has no
 *   separate negatives, so its none-threshold is never tuned on it.
 * - CLINC150: the 150 intents become skills: description = the intent label in words and its
 *   domain, examples = the first 10 `train` utterances of the intent. Dev = `val` + `oos_val` +
 *   `oos_train` (200 out-of-scope requests: 100 were too few to choose a none-threshold on),
 *   test = `test` + `oos_test` (oos → expect null).
 * - dotnet-marketplace: the 9 real SKILL.md files, parsed with parseSkill. Dev = the 20
 *   agent-routing cases + the 28 copilot-smoke cases (5 negatives; "advisor-routed" cases count
 *   when either expected skill is found). Test = the 35 trigger-corpus queries mapped to their
 *   HEAD skill with the consolidation table from the data README (no negatives).
 * - MetaTool + CLINC150 out-of-scope (dev only): MetaTool's shelf and dev positives with
 *   CLINC150's dev out-of-scope requests as its negatives, so abstention on a shelf without
 *   examples has a dev figure.
 */
import fs from "node:fs";
import path from "node:path";
import { defaultSkillMeta, parseSkill, type RoutingCase, type Skill } from "@skillshelf/core";
import { DATA_DIR } from "./corpus.ts";

export const ROUTING_DIR = path.join(DATA_DIR, "routing");

export interface RoutingSet {
  name: string;
  skills: Skill[];
  dev: RoutingCase[];
  test: RoutingCase[];
  /** Phrases for the exact-substring baseline, per skill name. */
  substrings: Map<string, string[]>;
}

export function benchSkill(fields: Partial<Skill> & { name: string; description: string }): Skill {
  return {
    ...defaultSkillMeta(),
    body: "",
    scope: "project",
    file: `bench:${fields.name}`,
    hash: fields.name,
    locked: false,
    bodyLine: 1,
    ...fields,
  };
}

const read = (...parts: string[]) => fs.readFileSync(path.join(ROUTING_DIR, ...parts), "utf8");

/** RFC 4180: quoted fields may hold commas, doubled quotes and newlines. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(field);
      field = "";
    } else if (ch === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else if (ch !== "\r") field += ch;
  }
  if (field !== "" || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** "PDF&URLTool" → "pdf url tool", "freeze_account" → "freeze account". */
export function nameWords(name: string): string {
  return name
    .replace(/([a-z])([A-Z])/gu, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/gu, "$1 $2")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim()
    .toLowerCase();
}

export function metatool(): RoutingSet {
  const tools = JSON.parse(read("metatool", "plugin_des.json")) as Record<string, string>;
  const skills = Object.entries(tools).map(([name, description]) => benchSkill({ name, description }));
  const task1 = JSON.parse(read("metatool", "Task1.json")) as {
    query: string;
    label: string;
    tool?: string;
  }[];
  const test: RoutingCase[] = task1.map((r, i) => ({
    id: `task1-${i}`,
    message: r.query,
    expect: r.label === "positive" && r.tool ? [r.tool] : null,
  }));
  const inTest = new Set(task1.map((r) => r.query));
  const rows = parseCsv(read("metatool", "all_clean_data.csv")).slice(1);
  const dev: RoutingCase[] = [];
  rows.forEach(([query, tool], i) => {
    if (i % 20 !== 0 || !query || !tool || inTest.has(query)) return;
    dev.push({ id: `clean-${i}`, message: query, expect: [tool] });
  });
  const substrings = new Map(skills.map((s) => [s.name, [nameWords(s.name)]]));
  return { name: "MetaTool", skills, dev: dev.slice(0, 1000), test, substrings };
}

export function clinc(examplesPerIntent = 10): RoutingSet {
  const data = JSON.parse(read("clinc150", "data_full.json")) as Record<string, [string, string][]>;
  const domains = JSON.parse(read("clinc150", "domains.json")) as Record<string, string[]>;
  const domainOf = new Map<string, string>();
  for (const [domain, intents] of Object.entries(domains)) for (const i of intents) domainOf.set(i, domain);
  const examples = new Map<string, string[]>();
  for (const [utterance, intent] of data.train ?? []) {
    const list = examples.get(intent) ?? [];
    if (list.length < examplesPerIntent) list.push(utterance);
    examples.set(intent, list);
  }
  const skillName = (intent: string) => intent.replace(/_/gu, "-");
  const skills = [...examples.keys()].map((intent) =>
    benchSkill({
      name: skillName(intent),
      description: `${nameWords(intent)} (${nameWords(domainOf.get(intent) ?? "")})`,
      examples: examples.get(intent) ?? [],
    }),
  );
  const cases = (split: string, prefix: string): RoutingCase[] =>
    (data[split] ?? []).map(([message, intent], i) => ({
      id: `${prefix}-${i}`,
      message,
      expect: intent === "oos" ? null : [skillName(intent)],
    }));
  const substrings = new Map(
    [...examples].map(
      ([intent, list]) => [skillName(intent), [nameWords(intent), ...list]] as [string, string[]],
    ),
  );
  return {
    name: "CLINC150",
    skills,
    dev: [...cases("val", "val"), ...cases("oos_val", "oos-val"), ...cases("oos_train", "oos-train")],
    test: [...cases("test", "test"), ...cases("oos_test", "oos-test")],
    substrings,
  };
}

/**
 * MetaTool's dev split has no "nothing applies" cases, so abstention on a shelf without
 * examples could not be chosen on it. This set is MetaTool's skills and dev positives plus
 * CLINC150's dev out-of-scope requests as negatives (everyday requests, none of them written
 * for MetaTool's tools; a few may fit one, which only makes the figure conservative). Dev
 * only: its test split is empty, and neither MetaTool's nor CLINC150's test cases are in it.
 */
export function metatoolWithForeignNegatives(): RoutingSet {
  const base = metatool();
  const negatives = clinc().dev.filter((c) => c.expect === null);
  return { ...base, name: "MetaTool + CLINC150 out-of-scope", dev: [...base.dev, ...negatives], test: [] };
}

/** trigger-corpus.json names (before the 2026-02 consolidation) → the HEAD skill (data README table). */
const CONSOLIDATED: Record<string, string[]> = {
  "dotnet-api": [
    "dotnet-minimal-apis",
    "dotnet-architecture-patterns",
    "dotnet-secrets-management",
    "dotnet-agent-gotchas",
    "dotnet-efcore-patterns",
    "dotnet-library-api-compat",
    "dotnet-api-surface-validation",
    "dotnet-semantic-kernel",
    "dotnet-aspire-patterns",
    "dotnet-messaging-patterns",
    "dotnet-io-pipelines",
  ],
  "dotnet-tooling": [
    "dotnet-version-detection",
    "dotnet-system-commandline",
    "dotnet-multi-targeting",
    "dotnet-native-aot",
    "dotnet-project-structure",
    "dotnet-xml-docs",
    "dotnet-msbuild-authoring",
    "dotnet-spectre-console",
    "dotnet-terminal-gui",
    "dotnet-gc-memory",
  ],
  "dotnet-csharp": [
    "dotnet-csharp-dependency-injection",
    "dotnet-serialization",
    "dotnet-csharp-async-patterns",
    "dotnet-domain-modeling",
    "dotnet-linq-optimization",
    "dotnet-file-io",
  ],
  "dotnet-devops": [
    "dotnet-gha-build-test",
    "dotnet-nuget-authoring",
    "dotnet-release-management",
    "dotnet-structured-logging",
  ],
  "dotnet-testing": ["dotnet-integration-testing", "dotnet-benchmarkdotnet"],
  "dotnet-ui": ["dotnet-maui-development", "dotnet-localization"],
};

export function dotnet(): RoutingSet {
  const root = path.join(ROUTING_DIR, "skill-trigger-cases");
  const skillsDir = path.join(root, "plugins", "dotnet-artisan", "skills");
  const skills = fs
    .readdirSync(skillsDir)
    .sort()
    .map((dir) => {
      const file = path.join(skillsDir, dir, "SKILL.md");
      const parsed = parseSkill(fs.readFileSync(file), { path: file });
      if (!parsed.skill) throw new Error(`${file} did not parse`);
      return { ...parsed.skill, scope: "project", dir: path.dirname(file), locked: false } as Skill;
    });
  const dev: RoutingCase[] = [];
  const test: RoutingCase[] = [];
  const routing = JSON.parse(
    fs.readFileSync(path.join(root, "tests", "agent-routing", "cases.json"), "utf8"),
  ) as {
    case_id: string;
    prompt: string;
    expected_skill: string;
  }[];
  for (const c of routing) dev.push({ id: c.case_id, message: c.prompt, expect: [c.expected_skill] });
  const smoke = fs
    .readFileSync(path.join(root, "tests", "copilot-smoke", "cases.jsonl"), "utf8")
    .trim()
    .split("\n");
  for (const line of smoke) {
    const c = JSON.parse(line) as {
      id: string;
      user_prompt: string;
      expected_skills: string[];
      should_activate: boolean;
    };
    dev.push({ id: c.id, message: c.user_prompt, expect: c.should_activate ? c.expected_skills : null });
  }
  const headOf = new Map<string, string>();
  for (const [head, olds] of Object.entries(CONSOLIDATED)) for (const old of olds) headOf.set(old, head);
  const corpus = JSON.parse(fs.readFileSync(path.join(root, "tests", "trigger-corpus.json"), "utf8")) as {
    query: string;
    expected_skill: string;
  }[];
  corpus.forEach((c, i) => {
    const head = headOf.get(c.expected_skill);
    if (head) test.push({ id: `corpus-${i}`, message: c.query, expect: [head] });
  });
  const substrings = new Map(skills.map((s) => [s.name, [nameWords(s.name)]]));
  return { name: "dotnet skills", skills, dev, test, substrings };
}
