/**
 * The version a managed write gives a skill, edited into the file in place: only the
 * characters of the version value change (quotes, comments, key order, line endings and
 * the rest of the file stay byte for byte).
 *
 * The field: top-level `version` (DESIGN.md §3); when a file only has `metadata.version`
 * (the Agent Skills spec's place for it) that one is used instead. A file without either
 * gets `version: 0.0.1` as the last frontmatter line: an unversioned skill counts as
 * 0.0.0, and we never invent a 1.x maturity claim for it. Set `version: 1.0.0` by hand
 * at any time; bumps continue from there.
 *
 * The rule: the new version is the current file's version with its patch bumped, unless
 * the new content already declares a higher one (the author bumped minor or major on
 * purpose), which is kept. So versions only ever go up, a rollback included. A version
 * that is not semver-like (`version: [draft]`) is left alone and reported.
 */
import semver from "semver";
import { isMap, isScalar, type Node, parseDocument, type Scalar } from "yaml";

export interface VersionBump {
  /** The content with the new version in place. */
  text: string;
  /** The version now in `text` (undefined only when `note` explains why nothing was set). */
  version: string | undefined;
  /** Why the version was left as is, when it was. */
  note?: string;
}

interface Frontmatter {
  /** Offset of the YAML text in the file. */
  start: number;
  yaml: string;
  /** Offset of the closing fence line. */
  closing: number;
  eol: string;
}

const OPENING_FENCE = /^---[ \t]*(\r?\n)/;
const CLOSING_FENCE = /^---[ \t]*\r?$/gm;

function locateFrontmatter(text: string): Frontmatter | undefined {
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const opening = OPENING_FENCE.exec(text.slice(bom));
  if (!opening) return undefined;
  const start = bom + opening[0].length;
  CLOSING_FENCE.lastIndex = start;
  const closing = CLOSING_FENCE.exec(text);
  if (!closing) return undefined;
  return { start, yaml: text.slice(start, closing.index), closing: closing.index, eol: opening[1]! };
}

interface VersionNode {
  node: Scalar | Node | undefined;
  /** The value as written (without quotes), or undefined when it is not a scalar. */
  raw: string | undefined;
}

function findVersionNode(yaml: string): { doc: ReturnType<typeof parseDocument>; found?: VersionNode } {
  const doc = parseDocument(yaml, { keepSourceTokens: false, uniqueKeys: false });
  const top = topLevelVersion(doc.contents);
  const node =
    top === undefined ? (doc.getIn(["metadata", "version"], true) as Node | null | undefined) : top;
  if (node === undefined) return { doc };
  if (node !== null && isScalar(node)) {
    const raw =
      node.source ?? (node.value === null || node.value === undefined ? undefined : String(node.value));
    return { doc, found: { node, raw } };
  }
  // A map, a list, or an empty `version:`: not something to bump in place.
  return { doc, found: { node: node ?? undefined, raw: undefined } };
}

/**
 * `version`, or failing that a key differing only in case (`Version:`), which lenient
 * parsing reads as it. Null for a key with no value; undefined for no key.
 */
function topLevelVersion(contents: unknown): Node | null | undefined {
  if (!isMap(contents)) return undefined;
  let caseVariant: Node | null | undefined;
  for (const pair of contents.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
    if (key === "version") return (pair.value ?? null) as Node | null;
    if (key?.toLowerCase() === "version" && caseVariant === undefined)
      caseVariant = (pair.value ?? null) as Node | null;
  }
  return caseVariant;
}

/** The version a SKILL.md declares (top-level `version`, else `metadata.version`), as written. */
export function readVersion(text: string): string | undefined {
  const fm = locateFrontmatter(text);
  if (!fm) return undefined;
  return findVersionNode(fm.yaml).found?.raw;
}

/** `1.2.3`, `v1.2.3`, `1.2.3-beta.1`, and the short forms `1.2` / `2` (as 1.2.0 / 2.0.0). */
function toSemver(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const trimmed = raw.trim();
  const valid = semver.valid(trimmed, { loose: false }) ?? semver.valid(trimmed.replace(/^v/, ""));
  if (valid) return valid;
  if (/^v?\d+(\.\d+)?$/.test(trimmed)) return semver.coerce(trimmed)?.version ?? undefined;
  return undefined;
}

/**
 * The version new content should carry when it replaces a file whose version is `current`:
 * `"keep"` when the content already declares a higher one, undefined when there is no
 * semver to bump from.
 */
export function nextVersion(
  current: string | undefined,
  declared: string | undefined,
): string | "keep" | undefined {
  const base = toSemver(current);
  const wanted = toSemver(declared);
  if (wanted !== undefined && (base === undefined || semver.gt(wanted, base))) return "keep";
  const from = base ?? (current === undefined && declared === undefined ? "0.0.0" : undefined);
  if (from === undefined) return undefined;
  const bumped = semver.inc(from, "patch")!;
  return (current ?? declared ?? "").trim().startsWith("v") ? `v${bumped}` : bumped;
}

/**
 * Gives `content` its next version. `current` is the version of the file being replaced
 * (undefined when it had none).
 */
export function bumpVersion(content: string, current: string | undefined): VersionBump {
  const fm = locateFrontmatter(content);
  if (!fm) return { text: content, version: undefined, note: "no frontmatter to carry a version" };
  const { doc, found } = findVersionNode(fm.yaml);
  if (found && found.raw === undefined) {
    return { text: content, version: undefined, note: "the version field is not a plain value; left as is" };
  }

  const next = nextVersion(current, found?.raw);
  if (next === "keep") return { text: content, version: found!.raw };
  if (next === undefined) {
    return {
      text: content,
      version: found?.raw,
      note: `version "${found?.raw ?? current}" is not semver; left as is`,
    };
  }

  if (found) {
    const [from, to] = found.node!.range!;
    const scalar = found.node as Scalar;
    const quote = scalar.type === "QUOTE_DOUBLE" ? '"' : scalar.type === "QUOTE_SINGLE" ? "'" : "";
    return {
      text: content.slice(0, fm.start + from) + quote + next + quote + content.slice(fm.start + to),
      version: next,
    };
  }
  if (isMap(doc.contents) && doc.contents.flow) {
    // `{name: x, description: y}` on one line: no line to add, so re-emit this (rare) frontmatter.
    doc.set("version", next);
    const yaml = doc.toString({ lineWidth: 0 }).replace(/\n/g, fm.eol);
    return { text: content.slice(0, fm.start) + yaml + content.slice(fm.closing), version: next };
  }
  return {
    text: `${content.slice(0, fm.closing)}version: ${next}${fm.eol}${content.slice(fm.closing)}`,
    version: next,
  };
}
