/**
 * The values the fast frontmatter readers build (fast-frontmatter.ts over js-yaml's events,
 * line-frontmatter.ts over the common line shapes), and the one way both are read: the same
 * representation from either reader means the same `Frontmatter` for normalizeMeta.
 */
import type { ScalarTag } from "yaml";
import { NEEDS_TAGS, plainScalarValue } from "./plain-scalar.js";
import { defineOwn } from "./schema.js";
import {
  collectDuplicates,
  type Frontmatter,
  type FrontmatterPair,
  type NestedDuplicate,
} from "./yaml-frontmatter.js";
import { yamlCoreSchema, yamlLib } from "./yaml-lib.js";

/** A plain scalar the core schema reads as a number: its value and the text it was written as. */
export class YamlNumber {
  constructor(
    readonly value: number,
    readonly source: string,
  ) {}
}

/** A nested mapping, kept as pairs (with where each key starts) until it is read. */
export class YamlMap {
  constructor(readonly pairs: Array<[key: string, value: FastValue, at: number]>) {}
}

export type FastValue = string | boolean | null | YamlNumber | YamlMap | FastValue[];

let implicitTags: ScalarTag[] | undefined;
/** `yaml`'s default scalar tags (those it tries on plain scalars), in its order. */
function implicitTagsOf(): ScalarTag[] {
  implicitTags ??= yamlCoreSchema().tags.filter(
    (tag): tag is ScalarTag => tag.default === true && (tag as ScalarTag).test !== undefined,
  );
  return implicitTags;
}
const RESOLVE_OPTIONS = { intAsBigInt: false } as Parameters<ScalarTag["resolve"]>[2];
const ignoreError = () => undefined;

/**
 * A plain scalar typed by the core schema, as `yaml`'s composer types it; undefined for a
 * value these readers do not know how to keep (no core-schema tag gives one).
 */
export function typedPlain(text: string): FastValue | undefined {
  const known = plainScalarValue(text);
  if (known !== NEEDS_TAGS) return known;
  for (const tag of implicitTagsOf()) {
    if (!tag.test!.test(text)) continue;
    const resolved = tag.resolve(text, ignoreError, RESOLVE_OPTIONS);
    const value = yamlLib().isScalar(resolved) ? resolved.value : resolved;
    if (typeof value === "number") return new YamlNumber(value, text);
    if (typeof value === "boolean" || value === null) return value;
    if (typeof value === "string") return value;
    return undefined;
  }
  return text;
}

/** The top-level pair whose key starts at offset `at` of the YAML. */
export function fastPair(key: string, value: FastValue, at: number): FrontmatterPair {
  return { key, keyNode: { range: [at, at, at] }, value };
}

/** The `Frontmatter` of pairs whose values are fast values. */
export function fastFrontmatter(pairs: FrontmatterPair[]): Frontmatter {
  return {
    pairs,
    text: (value) => textOf(value as FastValue),
    js: (value) => jsOf(value as FastValue),
    duplicates: (value, path) => {
      const found: NestedDuplicate[] = [];
      duplicatesIn(value as FastValue, path, found);
      return found;
    },
  };
}

function textOf(value: FastValue): unknown {
  if (value instanceof YamlNumber) return value.source;
  if (Array.isArray(value)) return value.map(textOf);
  if (value instanceof YamlMap) return objectOf(value, textOf);
  return value;
}

function jsOf(value: FastValue): unknown {
  if (value instanceof YamlNumber) return value.value;
  if (Array.isArray(value)) return value.map(jsOf);
  if (value instanceof YamlMap) return objectOf(value, jsOf);
  return value;
}

/** Repeated keys in the mappings inside `value`, as yaml-frontmatter.ts finds them in nodes. */
function duplicatesIn(value: FastValue, path: string, found: NestedDuplicate[]): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      duplicatesIn(item, `${path}[${index}]`, found);
    });
    return;
  }
  if (!(value instanceof YamlMap)) return;
  collectDuplicates(
    value.pairs.map(([key, , at]) => ({ key, at })),
    path,
    found,
  );
  for (const [key, item] of value.pairs) duplicatesIn(item, `${path}.${key}`, found);
}

function objectOf(map: YamlMap, read: (value: FastValue) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of map.pairs) defineOwn(out, key, read(value));
  return out;
}
