/**
 * The frontmatter YAML → its top-level pairs, with their nodes kept for line numbers.
 * Values are converted on demand, one pair at a time, so a value nobody reads costs
 * nothing, and alias expansion is capped everywhere (billion-laughs documents fail fast).
 */
import type { Document, Node } from "yaml";
import { MAX_YAML_ALIASES, MAX_YAML_DEPTH } from "./limits.js";
import type { Locator, Report } from "./report.js";
import { defineOwn } from "./schema.js";
import { exceedsYamlDepth } from "./yaml-depth.js";
import { yamlCoreSchema, yamlLib } from "./yaml-lib.js";
import { quoteUnreadableValues, type RepairKind } from "./yaml-recovery.js";

/** Where a key starts in the YAML (a `yaml` node, or the fast path's offsets), for its line. */
export interface KeyPosition {
  range?: [number, number, number] | null;
}

export interface FrontmatterPair {
  key: string;
  /** The key's position; null for a key that is not written (never for a real pair). */
  keyNode: KeyPosition | null;
  /** The value, in whatever form `text` and `js` of the same frontmatter read. */
  value: unknown;
}

/** Top-level pairs of a frontmatter mapping and the two ways of reading their values. */
export interface Frontmatter {
  pairs: FrontmatterPair[];
  /**
   * A value as plain JS, numbers as they were written (`version: 1.10` is "1.10", not 1.1;
   * metadata `version: 1.0` is "1.0"), for fields whose values are text. Mappings have own
   * properties only, so `__proto__` or `constructor` keys are just keys. Throws
   * AliasLimitError when the value expands more aliases than `budget` allows.
   */
  text(value: unknown, budget: { aliases: number }): unknown;
  /** A value exactly as YAML means it (for unknown keys, kept verbatim in `extra`). */
  js(value: unknown): unknown;
  /**
   * Keys written more than once in one mapping inside `value` (`metadata`, `hooks`), which
   * reading it as JS would silently collapse to the last one; `path` names the value.
   * Aliases are not followed (the fast path never has any).
   */
  duplicates(value: unknown, path: string): NestedDuplicate[];
}

/** A key repeated inside a nested mapping: `path` names it (`metadata.version`). */
export interface NestedDuplicate {
  path: string;
  /** Where this copy of the key starts (an offset in the YAML). */
  at: number;
  /** Where the copy that is used (the last one, as YAML reads it) starts. */
  usedAt: number;
  /** How many times the key is written in that mapping. */
  copies: number;
}

/** Adds to `found` one entry per ignored copy of each key repeated among `keys` (one mapping). */
export function collectDuplicates(
  keys: ReadonlyArray<{ key: string; at: number }>,
  path: string,
  found: NestedDuplicate[],
): void {
  if (keys.length < 2) return;
  const byKey = new Map<string, number[]>();
  for (const { key, at } of keys) {
    const offsets = byKey.get(key);
    if (offsets) offsets.push(at);
    else byKey.set(key, [at]);
  }
  for (const [key, offsets] of byKey) {
    if (offsets.length < 2) continue;
    const usedAt = offsets[offsets.length - 1]!;
    for (const at of offsets.slice(0, -1)) {
      found.push({ path: `${path}.${key}`, at, usedAt, copies: offsets.length });
    }
  }
}

/** Thrown (and caught by the caller) when a value expands more aliases than allowed. */
export class AliasLimitError extends Error {}

// The YAML 1.2 core schema (dates and `yes`/`no` stay strings) is built once (yaml-lib.ts):
// by default every parse builds its own, about a tenth of the cost of parsing a typical
// frontmatter. The fast path (fast-frontmatter.ts) types its plain scalars with its tags.

function parseYaml(yaml: string): Document {
  return yamlLib().parseDocument(yaml, {
    schema: yamlCoreSchema(),
    // Duplicates are reported by us, with a deterministic winner, instead of failing the file.
    uniqueKeys: false,
    prettyErrors: false,
    // Never write to the host's console; problems come back as diagnostics.
    logLevel: "silent",
  }) as Document;
}

/** What each lenient repair tells the user (the line keeps its place, so it is reported there). */
const REPAIR_MESSAGES: Readonly<Record<RepairKind, { message: string; hint?: string }>> = {
  colon: { message: 'this value contains ": " but is not quoted; it was read as if it were quoted' },
  "block-header": {
    message:
      "this value starts with a `|` or `>` block header followed by text on the same line, which YAML rejects; it was read as the text after the header",
    hint: "Put the text on the lines below the `|` (indented), or drop the `|` and quote the text; other YAML parsers reject this file.",
  },
  indicator: {
    message:
      "this value starts with a character YAML reads as syntax (`@`, `` ` ``, `%`, `[`, `{`, a quote, `*`) and is not valid as such; it was read as if it were quoted",
    hint: 'Quote the whole value (e.g. argument-hint: "[file] [mode]"); other YAML parsers reject this file.',
  },
};

/** Parses the YAML (retrying once with unreadable values quoted in lenient mode). Undefined = skipped. */
export function readFrontmatter(report: Report, yaml: string, locator: Locator): Frontmatter | undefined {
  if (exceedsYamlDepth(yaml)) {
    report.error(
      "yaml-syntax",
      `the frontmatter nests more than ${MAX_YAML_DEPTH} levels deep`,
      2,
      "Flatten the frontmatter: fields are strings, lists of strings, or one level of `metadata`.",
    );
    return undefined;
  }
  let doc: Document;
  try {
    doc = parseYaml(yaml);
  } catch (error) {
    // The parser itself gave up (e.g. nesting deep enough to exhaust the stack).
    report.error("yaml-syntax", `the frontmatter could not be parsed: ${(error as Error).message}`, 2);
    return undefined;
  }
  if (doc.errors.length > 0) {
    const first = doc.errors[0]!;
    const recovery = report.mode === "lenient" ? quoteUnreadableValues(yaml) : undefined;
    const retried = recovery ? parseYaml(recovery.yaml) : undefined;
    if (recovery === undefined || retried === undefined || retried.errors.length > 0) {
      const where = locator.at(first.pos[0]);
      report.error(
        "yaml-syntax",
        `the frontmatter is not valid YAML: ${first.message}`,
        where.line,
        undefined,
        where.column,
      );
      return undefined;
    }
    doc = retried;
    recovery.lines.forEach((index, i) => {
      const { message, hint } = REPAIR_MESSAGES[recovery.kinds[i]!];
      report.add("warning", "yaml-recovered", message, locator.line(index), hint);
    });
  }

  const contents = doc.contents;
  if (contents === null || (yamlLib().isScalar(contents) && contents.value === null))
    return documentFrontmatter(doc, []);
  if (!yamlLib().isMap(contents)) {
    report.error(
      "frontmatter-not-mapping",
      `the frontmatter is ${yamlLib().isScalar(contents) ? "a single value" : "a list"}, not \`key: value\` fields`,
      locator.lineOf(contents),
    );
    return undefined;
  }
  const pairs: FrontmatterPair[] = [];
  for (const pair of contents.items) {
    const keyNode = (pair.key ?? null) as Node | null;
    pairs.push({ key: keyText(keyNode), keyNode, value: (pair.value ?? null) as Node | null });
  }
  return documentFrontmatter(doc, pairs);
}

function documentFrontmatter(doc: Document, pairs: FrontmatterPair[]): Frontmatter {
  return {
    pairs,
    text: (value, budget) => textValue(doc, value as Node | null, budget),
    js: (value) => jsValue(doc, value as Node | null),
    duplicates: (value, path) => {
      const found: NestedDuplicate[] = [];
      duplicatesIn(value as Node | null, path, found);
      return found;
    },
  };
}

function duplicatesIn(node: Node | null, path: string, found: NestedDuplicate[]): void {
  if (yamlLib().isSeq(node)) {
    node.items.forEach((item, index) => {
      duplicatesIn(item as Node | null, `${path}[${index}]`, found);
    });
    return;
  }
  if (!yamlLib().isMap(node)) return;
  collectDuplicates(
    node.items.map((pair) => ({
      key: keyText(pair.key as Node | null),
      at: (pair.key as Node | null)?.range?.[0] ?? 0,
    })),
    path,
    found,
  );
  for (const pair of node.items) {
    duplicatesIn(pair.value as Node | null, `${path}.${keyText(pair.key as Node | null)}`, found);
  }
}

function keyText(node: Node | null): string {
  if (node === null) return "";
  if (yamlLib().isScalar(node)) return node.value === null ? "" : String(node.value);
  return String(node);
}

/** Frontmatter.text over the document's nodes. */
function textValue(doc: Document, node: Node | null, budget: { aliases: number }): unknown {
  if (node === null) return null;
  if (yamlLib().isAlias(node)) {
    if (--budget.aliases < 0) throw new AliasLimitError();
    const target = node.resolve(doc);
    if (target === undefined) throw new AliasLimitError();
    return textValue(doc, target, budget);
  }
  if (yamlLib().isScalar(node)) {
    return typeof node.value === "number" && node.source !== undefined ? node.source : node.value;
  }
  if (yamlLib().isSeq(node)) return node.items.map((item) => textValue(doc, item as Node | null, budget));
  if (yamlLib().isMap(node)) {
    const out: Record<string, unknown> = {};
    for (const pair of node.items) {
      defineOwn(out, keyText(pair.key as Node | null), textValue(doc, pair.value as Node | null, budget));
    }
    return out;
  }
  return jsValue(doc, node);
}

/** Frontmatter.js over the document's nodes. */
function jsValue(doc: Document, node: Node | null): unknown {
  if (node === null) return null;
  if (yamlLib().isScalar(node)) return node.value;
  try {
    return node.toJS(doc, { maxAliasCount: MAX_YAML_ALIASES });
  } catch {
    throw new AliasLimitError();
  }
}
