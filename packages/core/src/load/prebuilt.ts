/**
 * Opening a prebuilt shelf (`skillshelf build`) for the first load of a shelf.
 *
 * What it saves: reading and parsing every SKILL.md, and reading every skill's text into the
 * index's terms — most of a cold start. What it keeps: the folders are still scanned, so a
 * skill added, removed or edited since the build is seen (an edited file — other size or
 * mtime — is read from its source; the build's copy of it is dropped), and a skill served
 * from the prebuilt is checked against its own file before it can be activated (the loader's
 * `get`). Nothing is written: a read-only file system is fine.
 *
 * Fail closed: a file that cannot be read, is not JSON, has the wrong shape, another format
 * version, another core version, another parse mode or other source folders is not used at
 * all (a located `prebuilt-unusable` diagnostic says why, and the shelf is scanned as if
 * there were none).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { diagnostic } from "../diagnostic.js";
import {
  carryEverydayWeights,
  type StoredEverydayWeights,
  storedEverydayWeights,
} from "../match/familiarity.js";
import type { LexicalLayout } from "../match/lexical-index.js";
import { checkedSkillTerms, remapSkillTerms } from "../match/lexical-index.js";
import { type StoredIndexLayout, seedSkillTerms } from "../match/skill-index.js";
import { STAGE1_TERMS_VERSION } from "../match/tokenize.js";
import { sharedVocabulary, Vocabulary } from "../match/vocabulary.js";
import type { Diagnostic, ParseMode, ParseResult, Skill } from "../types.js";
import type { PrebuiltEntry, PrebuiltSource } from "./loader.js";
import {
  checkStoredShelf,
  type PrebuiltFileParts,
  PrebuiltFormatError,
  PrebuiltTooLargeError,
  readPrebuiltFile,
  type StoredFile,
  type StoredLostStub,
  type StoredShelf,
} from "./prebuilt-format.js";
import { decodeLayout, type LaidOutSkill, type StoredLayout, storedIndexLayout } from "./prebuilt-layout.js";
import type { Signature } from "./signature.js";
import type { SourceRoot } from "./sources.js";

/** Where `createShelf` looks for a prebuilt shelf unless told: `<stateDir>/prebuilt-shelf.bin`. */
export const DEFAULT_PREBUILT_FILE = "prebuilt-shelf.bin";

/** Largest prebuilt shelf read (the 15,725-file mirror builds to ≈ 150 MB). */
export const MAX_PREBUILT_BYTES = 512 * 1024 * 1024;

/**
 * A text whose terms exercise the analysis's own steps (stemming, stop words, camelCase,
 * NFKC, accents): a build's terms are only used where it reads the same. CJK segmentation is
 * the runtime's (ICU), so its version is compared instead of loading its dictionary here.
 */
const PROBE = "Deploying the Kubernetes clusters' configurations quickly: runTests, PDFToText2 résumé ﬁle";

/** Written into the probe: a build that lacks this line read its terms another way (another stemmer). */
const TERMS_VERSION = `stage-1 terms ${STAGE1_TERMS_VERSION}`;

export function probeTerms(): string[] {
  const vocabulary = new Vocabulary();
  const count = vocabulary.read(PROBE);
  const terms = Array.from(vocabulary.ids.subarray(0, count), (id) => vocabulary.terms[id] as string);
  return [
    ...terms,
    TERMS_VERSION,
    `icu ${process.versions.icu ?? "none"}`,
    `unicode ${process.versions.unicode ?? "none"}`,
  ];
}

let coreVersionMemo: string | undefined;
/**
 * This package's version, from the nearest package.json named @skillshelf/core above this
 * module (src/load/, dist/load/, or a bundled dist/ or dist/chunks/).
 */
export function coreVersion(): string {
  if (coreVersionMemo !== undefined) return coreVersionMemo;
  let version = "unknown";
  for (const up of ["../package.json", "../../package.json", "../../../package.json"]) {
    try {
      const manifest = JSON.parse(fs.readFileSync(new URL(up, import.meta.url), "utf8"));
      if (manifest?.name !== "@skillshelf/core") continue;
      if (typeof manifest.version === "string") version = manifest.version;
      break;
    } catch {
      // not there: one folder further up
    }
  }
  coreVersionMemo = version;
  return version;
}

/** How a path is stored: relative to `root` with `/` when inside it, else absolute. */
export function storedPath(root: string, file: string): string {
  const relative = path.relative(root, file);
  if (relative === "" || relative.startsWith("..") || path.isAbsolute(relative)) return file;
  return relative.split(path.sep).join("/");
}

/** Plain relative paths (no `.`, `..` or empty segment, no backslash): joining them needs no normalising. */
const PLAIN_RELATIVE = /^(?!\/)(?!.*(?:^|\/)\.\.?(?:\/|$))(?!.*\/\/)[^\\]+(?<!\/)$/u;

function resolvedPath(root: string, stored: string): string {
  if (path.isAbsolute(stored)) return stored;
  // One call per recorded file and diagnostic (31,000 on the mirror): path.resolve's
  // normalising was a visible part of a cold start, and a build only writes plain paths.
  if (path.sep === "/" && PLAIN_RELATIVE.test(stored))
    return root === "/" ? `/${stored}` : `${root}/${stored}`;
  return path.resolve(root, ...stored.split("/"));
}

export interface OpenPrebuiltOptions {
  file: string;
  /** The shelf's root: stored paths are relative to it, so a built shelf can move with the app. */
  root: string;
  sources: readonly SourceRoot[];
  mode: ParseMode;
  /** Said by the host (not the default location): a missing file is worth a diagnostic. */
  explicit: boolean;
}

export interface OpenedPrebuilt {
  source?: PrebuiltSource;
  diagnostics: Diagnostic[];
}

export function openPrebuiltShelf(options: OpenPrebuiltOptions): OpenedPrebuilt {
  const unusable = (why: string, line = 1): OpenedPrebuilt => ({
    diagnostics: [
      diagnostic({
        severity: "warning",
        code: "prebuilt-unusable",
        message: `The prebuilt shelf ${options.file} is not used: ${why}. The skill folders are scanned instead.`,
        file: options.file,
        line,
      }),
    ],
  });
  let parts: PrebuiltFileParts;
  let stored: StoredShelf;
  try {
    parts = readPrebuiltFile(options.file, MAX_PREBUILT_BYTES);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && !options.explicit) return { diagnostics: [] };
    if (error instanceof PrebuiltTooLargeError) return unusable(error.message);
    if (error instanceof PrebuiltFormatError) return unusable(`at ${error.message}`);
    return unusable(`it cannot be read (${(error as Error).message})`);
  }
  try {
    stored = checkStoredShelf(JSON.parse(parts.json));
  } catch (error) {
    if (error instanceof PrebuiltFormatError) return unusable(`at ${error.message}`);
    return unusable(
      `its document is not valid JSON (${(error as Error).message})`,
      jsonErrorLine(parts.json, error as Error),
    );
  }
  if (stored.core !== coreVersion())
    return unusable(`it was built by @skillshelf/core ${stored.core}, this is ${coreVersion()}`);
  if (stored.index !== undefined && !stored.index.probe.includes(TERMS_VERSION))
    return unusable(
      `its index terms were read by another version of the analysis (this one is ${TERMS_VERSION})`,
    );
  if (stored.mode !== options.mode)
    return unusable(`it was built in ${stored.mode} mode, the shelf is ${options.mode}`);
  const folders = (list: ReadonlyArray<{ dir: string; scope: string }>) =>
    list.map((s) => `${s.scope}:${s.dir}`).join(", ");
  const builtFor = stored.sources.map((s) => ({ dir: resolvedPath(options.root, s.dir), scope: s.scope }));
  if (folders(builtFor) !== folders(options.sources))
    return unusable(
      `it was built for other skill folders (${folders(builtFor)}), the shelf has ${folders(options.sources)}`,
    );

  const layout = stored.index?.layout;
  let laidOut: LaidOut | undefined;
  if (layout !== undefined) {
    const listed = laidOutSkills(layout, stored.files);
    const decoded = decodeLayout(layout, listed, stored.index?.terms.length ?? 0, parts.ints);
    if (typeof decoded === "string") return unusable(`at index.layout: ${decoded}`);
    const at = new Map<unknown, number>();
    layout.skills.forEach((position, i) => {
      if (position >= 0) at.set((stored.files[position] as StoredFile).skill, i);
    });
    laidOut = { layout: decoded, listed, references: layout.references, at };
  }

  return {
    source: prebuiltSource(
      options,
      stored,
      storedFileLookup(options.root, stored.files),
      parts.ints,
      laidOut,
    ),
    diagnostics: [],
  };
}

/** The index layout a file stores, checked, with the list it was laid out for. */
interface LaidOut {
  layout: LexicalLayout;
  listed: readonly LaidOutSkill[];
  references: StoredLayout["references"];
  /** Each laid-out file's place in the list, by its stored skill (what the loader's entry hands back). */
  at: ReadonlyMap<unknown, number>;
}

/** The laid-out list's skills as the build recorded them (positions checked with the document's shape). */
function laidOutSkills(layout: StoredLayout, files: readonly StoredFile[]): LaidOutSkill[] {
  return layout.skills.map((position) => {
    if (position < 0) return layout.builtins[-1 - position] as LaidOutSkill;
    const skill = (files[position] as StoredFile).skill as { name: string; hash: string; examples: string[] };
    return { name: skill.name, hash: skill.hash, examples: skill.examples.length };
  });
}

interface StoredFileLookup {
  get(file: string): StoredFile | undefined;
  readonly size: number;
}

/**
 * The recorded files by the path the scan finds them at. Where paths are `/`-separated, by the
 * path as stored: a found file inside the root is matched against its relative path (what a
 * build writes for it), else against its absolute one — no path made for each of 15,000
 * records. A stored path in any other form (a build writes none) matches no file, and that
 * file's skill is read from its source.
 *
 * The build writes the files in about the order a scan finds them, so each lookup first tries
 * the record after the last one found: a comparison instead of hashing every path into a
 * map, and no map at all for a start whose folders are as built. A lookup that misses there
 * builds the map once.
 */
function storedFileLookup(root: string, files: readonly StoredFile[]): StoredFileLookup {
  if (path.sep !== "/") {
    const byPath = new Map<string, StoredFile>();
    for (const file of files) byPath.set(resolvedPath(root, file.path), file);
    return byPath;
  }
  const inside = root.endsWith("/") ? root : `${root}/`;
  const isPathOf = (stored: string, file: string) =>
    stored === file ||
    (file.length === inside.length + stored.length && file.endsWith(stored) && file.startsWith(inside));
  let byPath: Map<string, number> | undefined;
  const mapped = () => {
    if (byPath) return byPath;
    byPath = new Map();
    for (let i = 0; i < files.length; i++) byPath.set((files[i] as StoredFile).path, i);
    return byPath;
  };
  let next = 0;
  let lastFile: string | undefined;
  let lastFound: StoredFile | undefined;
  const find = (file: string): StoredFile | undefined => {
    const expected = files[next];
    if (expected !== undefined && isPathOf(expected.path, file)) {
      next++;
      return expected;
    }
    const map = mapped();
    const at = (file.startsWith(inside) ? map.get(file.slice(inside.length)) : undefined) ?? map.get(file);
    if (at === undefined) return undefined;
    next = at + 1;
    return files[at];
  };
  return {
    // A path stored twice (no build writes one) counts as a recorded file that is gone.
    size: files.length,
    get(file) {
      // `has` asks again for a file `entry` just looked up.
      if (file !== lastFile) {
        lastFile = file;
        lastFound = find(file);
      }
      return lastFound;
    },
  };
}

function prebuiltSource(
  options: OpenPrebuiltOptions,
  stored: StoredShelf,
  byFile: StoredFileLookup,
  ints: Int32Array,
  laidOut: LaidOut | undefined,
): PrebuiltSource {
  const index = stored.index;
  const termsUsable =
    index !== undefined && os.endianness() === "LE" && index.probe.join("\0") === probeTerms().join("\0");
  // Built on first use: the build's term numbers → the process vocabulary's. In a fresh
  // process the vocabulary is empty and takes the build's terms in the build's order, so the
  // numbers are the same: the skills' terms are then used as stored (checked, not copied one
  // by one), as views of the int32 section, which was read into memory of its own.
  let termMap:
    | {
        /** Build term → the vocabulary's id; none when they are the same numbers. */
        map: Int32Array | undefined;
        /** How many terms the build has. */
        count: number;
        vocabulary: ReturnType<typeof sharedVocabulary>;
        everyday?: StoredEverydayWeights;
        layout?: StoredIndexLayout;
      }
    | undefined;
  const mapTerms = () => {
    const vocabulary = sharedVocabulary();
    if (!termMap || termMap.vocabulary !== vocabulary) {
      const terms = (index as NonNullable<typeof index>).terms;
      let map: Int32Array | undefined;
      let same = vocabulary.adoptTerms(terms);
      if (!same) {
        map = new Int32Array(terms.length);
        same = true;
        for (let i = 0; i < terms.length; i++) {
          map[i] = vocabulary.idOf(terms[i] as string);
          if (map[i] !== i) same = false;
        }
        if (same) map = undefined;
      }
      const pairs = (index as NonNullable<typeof index>).everyday;
      const ids = map;
      termMap = {
        map,
        count: terms.length,
        vocabulary,
        // This shelf's own: its skills carry them (the vocabulary is every shelf's).
        ...(pairs && {
          everyday: storedEverydayWeights(
            vocabulary.terms,
            terms.length,
            pairs,
            ids && ((t) => ids[t] as number),
          ),
        }),
        // Laid out in the build's term numbers: only for a vocabulary that kept them.
        ...(same &&
          laidOut && {
            layout: storedIndexLayout(
              laidOut.layout,
              laidOut.listed,
              vocabulary,
              (index as NonNullable<typeof index>).tuning,
              laidOut.references,
            ),
          }),
      };
    }
    return termMap;
  };
  return {
    file: options.file,
    recorded: byFile.size,
    has: (file) => byFile.get(file) !== undefined,
    entry(file: string, sig: Signature | undefined): PrebuiltEntry | undefined {
      const recorded = byFile.get(file);
      if (!recorded || !sig?.isFile || sig.size !== recorded.size) return undefined;
      return {
        result: storedResult(options.root, recorded),
        lost: recorded.lost === true ? (recorded.skill as unknown as StoredLostStub) : undefined,
        sameTime: sig.mtimeMs === recorded.mtimeMs,
        schemaFile: recorded.schema === true,
        terms: recorded.terms,
        phrases: recorded.phrases,
      };
    },
    adopted(skill: Skill, entry: PrebuiltEntry) {
      const run = termsUsable ? entry.terms : undefined;
      if (run === undefined || !index || run[0] + run[1] > ints.length) return;
      const { map, count, vocabulary, everyday, layout } = mapTerms();
      const terms = map
        ? remapSkillTerms(ints.subarray(run[0], run[0] + run[1]), map, skill.examples.length)
        : checkedSkillTerms(ints.subarray(run[0], run[0] + run[1]), count, skill.examples.length);
      // A malformed array is dropped: the index reads that skill's text instead.
      const at = layout && laidOut?.at.get(entry.result.skill);
      const place = layout && at !== undefined ? { layout, at } : undefined;
      if (terms) seedSkillTerms(skill, terms, vocabulary, index.tuning, entry.phrases, place);
      if (everyday) carryEverydayWeights(skill, everyday);
    },
  };
}

/**
 * The recorded parse, as the loader takes it. The stored skill is handed over as it is, once
 * (a found file has one entry): the loader makes it the skill it serves, adding file, dir and
 * scope in place, rather than copying 15,000 objects of varied shapes.
 */
function storedResult(root: string, recorded: StoredFile): ParseResult {
  const diagnostics =
    recorded.diagnostics.length === 0
      ? []
      : recorded.diagnostics.map((d) => ({ ...d, file: resolvedPath(root, d.file) }));
  // A lost file's stub is the loader's to make, from what it stores (PrebuiltEntry.lost).
  if (!recorded.skill || recorded.lost === true) return { diagnostics };
  return { skill: recorded.skill as unknown as NonNullable<ParseResult["skill"]>, diagnostics };
}

/** The line of a JSON syntax error, when the engine's message gives its position. */
function jsonErrorLine(text: string, error: Error): number {
  const at = /position (\d+)/u.exec(error.message);
  if (!at) return 1;
  let line = 1;
  const end = Math.min(Number(at[1]), text.length);
  for (let i = 0; i < end; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
