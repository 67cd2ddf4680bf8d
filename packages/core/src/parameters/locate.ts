/**
 * Lines for schema problems. A problem is found at a JSON pointer into the schema; the line
 * it sits on is looked up only when a diagnostic is made (the happy path never re-reads a
 * file). JSON is YAML, so one YAML parse with source ranges serves both `schema.json` and the
 * `parameters:` mapping of a frontmatter.
 */
import { readFileSync } from "node:fs";
import { countNewlines, splitFrontmatter } from "../parse/frontmatter.js";
import { yamlLib } from "../parse/yaml-lib.js";

function pointerPath(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .split("/")
    .slice(1)
    .map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"));
}

/** 1-based line of `pointer` in a YAML or JSON `text`, or of its nearest ancestor that exists. */
function lineIn(text: string, path: readonly string[]): number | undefined {
  let doc: ReturnType<ReturnType<typeof yamlLib>["parseDocument"]>;
  try {
    doc = yamlLib().parseDocument(text, { uniqueKeys: false });
  } catch {
    return undefined;
  }
  for (let n = path.length; n >= 0; n--) {
    const keys = path.slice(0, n).map((k) => (/^\d+$/.test(k) ? Number(k) : k));
    const node = keys.length === 0 ? doc.contents : doc.getIn(keys, true);
    const range = (node as { range?: [number, number, number] } | undefined)?.range;
    if (range) return countNewlines(text, range[0]) + 1;
  }
  return undefined;
}

/** The line of `pointer` in a `schema.json`'s text. */
export function lineInSchemaFile(text: string, pointer: string): number | undefined {
  return lineIn(text, pointerPath(pointer));
}

/** The line of `pointer` (into the `parameters:` value) in a SKILL.md. */
export function lineInFrontmatter(skillFile: string, pointer: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(skillFile, "utf8").replace(/\r\n?/g, "\n");
  } catch {
    return undefined;
  }
  const split = splitFrontmatter(text);
  if (split.kind !== "ok") return undefined;
  if (pointer === "") {
    // The field itself: the line of its key, not of the mapping below it.
    const index = split.yaml.split("\n").findIndex((line) => /^parameters\s*:/.test(line));
    return index < 0 ? undefined : index + split.yamlLine;
  }
  const line = lineIn(split.yaml, ["parameters", ...pointerPath(pointer)]);
  return line === undefined ? undefined : line + split.yamlLine - 1;
}

/** The line a `JSON.parse` error names ("… at position 42"), if it names one. */
export function lineOfJsonError(text: string, error: unknown): number | undefined {
  const position = /position (\d+)/.exec(String((error as Error)?.message))?.[1];
  return position === undefined ? undefined : countNewlines(text, Number(position)) + 1;
}
