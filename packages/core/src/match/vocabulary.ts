/**
 * The index's vocabulary: term ids, and a fast path from text to term ids for indexing.
 *
 * Indexing a shelf reads megabytes of text (1,000 real skills ≈ 3 MB, bodies above all), and
 * reading it through {@link analyze} — a Unicode-property regex, a string and a stem lookup per
 * word, then a term lookup — was most of an index build. Here the text is scanned once, char
 * code by char code, and each ASCII word is packed into ints as it is read and looked up in a
 * table of the words seen before, which holds the term ids that word stands for (stem,
 * camelCase parts, or none for a stop word): a known word costs a hash probe and no
 * allocation. Words that are not plain ASCII (accents, CJK) take the slow path through the
 * same functions `analyze` uses (`pushWordTerms`, `pushCjkTerms`), cached per run; a text's new
 * CJK runs are segmented together once it has been read.
 * `read(text)` yields exactly the terms of `analyze(text).terms`, as ids (vocabulary.test.ts
 * checks it on the real corpus, the parser edge cases and random text).
 *
 * How a written word reads never changes, so, like the stem cache it replaces for indexing,
 * the vocabulary is shared by every matcher in the process ({@link sharedVocabulary}) and
 * only ever grows; past {@link MAX_WORDS} words the next index build starts a new one (and
 * every matcher re-reads its skills into it), which bounds its memory.
 */
import { CJK_CLASS } from "./normalize.js";
import { isStopword } from "./stopwords.js";
import { CAMEL, CAMEL_PARTS, pushCjkTerms, pushWordTerms, segmentCjkRuns, stem } from "./tokenize.js";

const SEPARATOR = 1;
const WORD = 2;
const CJK = 3;

/** Class of each ASCII code: letters and digits are word characters, the rest separates. */
const ASCII_CLASS = new Uint8Array(128).fill(SEPARATOR);
for (let c = 48; c <= 57; c++) ASCII_CLASS[c] = WORD;
for (let c = 65; c <= 90; c++) ASCII_CLASS[c] = WORD;
for (let c = 97; c <= 122; c++) ASCII_CLASS[c] = WORD;

// The classes of tokenize.ts's RUN, one code point at a time: a CJK run, a run of other
// letters/digits/marks, or neither.
const CJK_POINT = new RegExp(`^[${CJK_CLASS}]$`, "u");
const WORD_POINT = /^[\p{L}\p{N}\p{M}]$/u;
/** Classes of BMP code points, filled in as they are met (0 = not seen yet). */
const bmpClass = new Uint8Array(0x10000);
const astralClass = new Map<number, number>();

function classify(point: number): number {
  const char = String.fromCodePoint(point);
  return CJK_POINT.test(char) ? CJK : WORD_POINT.test(char) ? WORD : SEPARATOR;
}

function bmp(code: number): number {
  let cls = bmpClass[code] as number;
  if (cls === 0) {
    // A lone surrogate is no letter: RUN (with the v flag) skips it as well.
    cls = code >= 0xd800 && code <= 0xdfff ? SEPARATOR : classify(code);
    bmpClass[code] = cls;
  }
  return cls;
}

function astral(point: number): number {
  let cls = astralClass.get(point);
  if (cls === undefined) {
    cls = classify(point);
    astralClass.set(point, cls);
  }
  return cls;
}

/**
 * The class of the (non-ASCII) code point at `i`, plus 4 when it takes two code units
 * (a surrogate pair): `at & 3` is the class, `1 + (at >> 2)` the width.
 */
function classAt(text: string, i: number, code: number): number {
  if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
    const low = text.charCodeAt(i + 1);
    if (low >= 0xdc00 && low <= 0xdfff) return astral(((code - 0xd800) << 10) + (low - 0xdc00) + 0x10000) | 4;
  }
  return bmp(code);
}

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 16777619;
/**
 * The word table's hash of the word s[start … end) of more than 8 characters: FNV-1a over its
 * characters, mixed. Two words may share it: the table then tells them apart by their characters.
 */
export function longWordHash(s: string, start = 0, end = s.length): number {
  let hash = FNV_OFFSET;
  for (let j = start; j < end; j++) hash = Math.imul(hash ^ s.charCodeAt(j), FNV_PRIME);
  return mixed(hash);
}

function mixed(hash: number): number {
  hash ^= hash >>> 15;
  hash = Math.imul(hash, 0x2c1b3c6d);
  return hash ^ (hash >>> 13);
}

/** Emission of a stop word: no term. */
const NONE = -1;
/** Emission of a new CJK run, segmented once the text has been read (never stored). */
const PENDING = -0x40000000;
/** Record of the word table: hash, emission, then the word (see {@link Vocabulary.lookup}). */
const RECORD = 4;
const FRONT_MASK = 1023;

export class Vocabulary {
  /** term id → term */
  readonly terms: string[] = [];
  /** term → id */
  readonly termIds = new Map<string, number>();

  /**
   * ASCII words as written (case matters: "FinanceTool" also yields its parts) in an
   * open-addressing table of RECORD int32s per slot: hash, emission, and the word itself —
   * up to 8 characters packed into two ints as the scan reads them (letters and digits are
   * never 0, so the padding tells the length), a longer one as ~(its offset in `longBytes`)
   * and its length. A lookup touches one record and no string.
   */
  private table = new Int32Array(RECORD << 12);
  private mask = (1 << 12) - 1;
  private wordCount = 0;
  /** Recently met short words (a, b, emission), direct-mapped: small enough to stay in cache. */
  private readonly front = new Int32Array(3 * (FRONT_MASK + 1));
  private longBytes = new Uint8Array(1 << 14);
  private longUsed = 0;
  /**
   * Emissions of several terms, all in one array rather than one small array each (tens of
   * thousands on a real shelf): emission -2 - k is `severalIds[severalStart[k] … severalStart[k + 1])`.
   */
  private severalIds = new Int32Array(1 << 10);
  private severalStart = new Int32Array(1 << 8);
  private severalCount = 0;
  /** Non-ASCII runs (accented words, CJK runs) → emission. */
  private readonly runs = new Map<string, number>();

  /**
   * New CJK runs met by the current {@link read}, in order (each once), and where each stands in
   * `ids`: they are segmented together when the text has been read (see {@link learnCjkRuns}).
   */
  private pendingRuns: string[] = [];
  private readonly pendingIndex = new Map<string, number>();
  private pendingAt: number[] = [];
  /** The pending run's number, when {@link runEmission} returns PENDING. */
  private pendingNumber = 0;

  /** The ids read by the last {@link read}, `ids[0 … count)`. */
  ids: Int32Array = new Int32Array(1 << 12);

  /** Distinct words and runs remembered: how much the vocabulary holds besides its terms. */
  get words(): number {
    return this.wordCount + this.runs.size;
  }

  /** Id of a term, created if new. */
  idOf(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.terms.length;
      const own = detached(term);
      this.termIds.set(own, id);
      this.terms.push(own);
    }
    return id;
  }

  /**
   * Takes a build's terms as ids 0, 1, … in their order, in one step: for an empty vocabulary,
   * which then numbers them as the build did. The terms must be distinct; when they are not,
   * or the vocabulary holds terms already, nothing is taken and false is returned (each term
   * is then looked up with {@link idOf}). The strings are kept as they are, so they must be
   * strings of their own (as `JSON.parse` makes them), not slices of a skill's text.
   */
  adoptTerms(terms: readonly string[]): boolean {
    if (this.terms.length !== 0) return false;
    const { termIds } = this;
    for (let i = 0; i < terms.length; i++) {
      termIds.set(terms[i] as string, i);
      if (termIds.size !== i + 1) {
        termIds.clear();
        return false;
      }
    }
    for (let i = 0; i < terms.length; i++) this.terms.push(terms[i] as string);
    return true;
  }

  /**
   * Reads the index terms of `text` (those of `analyze(text).terms`, in order) into
   * `ids[0 … count)`, and returns `count`.
   */
  read(text: string): number {
    // Left over only by a read that threw: its placeholders are gone with it.
    if (this.pendingRuns.length !== 0) this.clearPending();
    const count = this.scan(text, 0, false);
    return this.pendingRuns.length === 0 ? count : this.learnCjkRuns(count);
  }

  /**
   * Reads the terms of the text that `bytes` (valid UTF-8) decode to, cut after its first
   * `maxUnits` UTF-16 code units — those of `read(bytes.toString("utf8").slice(0, maxUnits))`
   * — without decoding the whole text: ASCII bytes are ASCII characters one for one (UTF-8
   * never uses a byte below 0x80 inside a longer character), so the ASCII words are read
   * straight from the bytes, and only each stretch that holds something else is decoded, the
   * same stretch {@link scan} normalises on its own (from the ASCII character before it to the
   * next ASCII separator). A skill's body start is kept as UTF-8: decoding all of them was a
   * string of several kilobytes per skill at every first index build.
   */
  readUtf8(bytes: Buffer, maxUnits: number): number {
    if (this.pendingRuns.length !== 0) this.clearPending();
    const count = this.scanUtf8(bytes, maxUnits);
    return this.pendingRuns.length === 0 ? count : this.learnCjkRuns(count);
  }

  private scanUtf8(bytes: Buffer, maxUnits: number): number {
    const n = bytes.length;
    let count = 0;
    // units − bytes read so far: a decoded stretch is fewer units than bytes.
    let shift = 0;
    let limit = Math.min(n, maxUnits);
    let i = 0;
    while (i < limit) {
      let code = bytes[i] as number;
      let start = i;
      if (code < 128) {
        if (ASCII_CLASS[code] === SEPARATOR) {
          i++;
          continue;
        }
        let a = code;
        let b = 0;
        while (++i < limit) {
          code = bytes[i] as number;
          if (code >= 128 || ASCII_CLASS[code] === SEPARATOR) break;
          b = (b << 8) | (a >>> 24);
          a = (a << 8) | code;
        }
        if (i === limit || code < 128) {
          const emission = this.lookupBytes(bytes, start, i, a, b);
          count = this.appendEmission(count, emission);
          continue;
        }
        // The word goes on with non-ASCII letters: it is part of the stretch that follows.
      } else if (i > 0) start = i - 1;
      let end = i;
      while (++end < n) {
        const next = bytes[end] as number;
        if (next < 128 && ASCII_CLASS[next] === SEPARATOR) break;
      }
      let stretch = bytes.toString("utf8", start, end);
      const units = start + shift;
      if (units + stretch.length > maxUnits) {
        stretch = stretch.slice(0, maxUnits - units);
        limit = 0;
      } else {
        shift += stretch.length - (end - start);
        limit = Math.min(n, maxUnits - shift);
      }
      count = this.scan(stretch.normalize("NFKC"), count, true);
      i = end;
    }
    return count;
  }

  /** Puts the ids of a word's `emission` at `ids[count …)`, the pending place of a new CJK run included; returns the new count. */
  private appendEmission(count: number, emission: number): number {
    if (emission === PENDING) {
      if (count === this.ids.length) this.grownIds(count);
      this.pendingAt.push(count);
      this.ids[count] = this.pendingNumber;
      return count + 1;
    }
    return this.append(count, emission);
  }

  /**
   * Reads the terms of `s` into `ids` from `count` on; returns the new count. NFKC leaves
   * ASCII as it is, so only the stretches that hold something else are normalised, each on
   * its own (`normalized` says `s` is one): from the ASCII character before the first
   * non-ASCII one to the next ASCII separator. Cutting a text before an ASCII character never
   * changes its NFKC form (no ASCII character composes with the one before it, and none is
   * reordered), and the only compositions that start with an ASCII separator make symbols
   * ("=" + U+0338 → "≠"), which separate as well: the stretches read exactly as the whole
   * normalised text would, without normalising — and copying — a whole body for one "—".
   */
  private scan(s: string, count: number, normalized: boolean): number {
    const n = s.length;
    let ids = this.ids;
    let i = 0;
    while (i < n) {
      let code = s.charCodeAt(i);
      let emission: number;
      if (code < 128) {
        if (ASCII_CLASS[code] === SEPARATOR) {
          i++;
          continue;
        }
        // An ASCII word; it may go on with non-ASCII letters ("café"), then it is one run.
        // Its last 8 characters are shifted into a:b as it is read.
        const start = i;
        let a = code;
        let b = 0;
        while (++i < n) {
          code = s.charCodeAt(i);
          if (code >= 128 || ASCII_CLASS[code] === SEPARATOR) break;
          b = (b << 8) | (a >>> 24);
          a = (a << 8) | code;
        }
        if (i < n && code >= 128) {
          if (!normalized) {
            const end = stretchEnd(s, i);
            count = this.scan(s.slice(start, end).normalize("NFKC"), count, true);
            ids = this.ids;
            i = end;
            continue;
          }
          if ((classAt(s, i, code) & 3) === WORD) {
            i = runEnd(s, i, WORD);
            emission = this.runEmission(s.slice(start, i), WORD);
          } else emission = this.lookup(s, start, i, a, b);
        } else emission = this.lookup(s, start, i, a, b);
      } else {
        if (!normalized) {
          // What comes before is an ASCII separator (or nothing): the stretch starts there,
          // so a combining mark composes with it as in the whole text.
          const end = stretchEnd(s, i);
          count = this.scan(s.slice(i > 0 ? i - 1 : 0, end).normalize("NFKC"), count, true);
          ids = this.ids;
          i = end;
          continue;
        }
        const at = classAt(s, i, code);
        const cls = at & 3;
        const start = i;
        i += 1 + (at >> 2);
        if (cls === SEPARATOR) continue;
        i = runEnd(s, i, cls);
        emission = this.runEmission(s.slice(start, i), cls);
      }
      if (emission === NONE) continue;
      if (emission === PENDING) {
        // The run's place, holding its number among the pending runs.
        if (count === ids.length) ids = this.grownIds(count);
        this.pendingAt.push(count);
        ids[count++] = this.pendingNumber;
      } else if (emission >= 0) {
        if (count === ids.length) ids = this.grownIds(count);
        ids[count++] = emission;
      } else {
        const k = -2 - emission;
        const several = this.severalIds;
        const end = this.severalStart[k + 1] as number;
        for (let j = this.severalStart[k] as number; j < end; j++) {
          if (count === ids.length) ids = this.grownIds(count);
          ids[count++] = several[j] as number;
        }
      }
    }
    return count;
  }

  private grownIds(count: number): Int32Array {
    const grown = new Int32Array(count * 2);
    grown.set(this.ids);
    this.ids = grown;
    return grown;
  }

  /** The emission of the ASCII word s[start … end) (packed in a:b when ≤ 8 characters): from the table, or computed once. */
  private lookup(s: string, start: number, end: number, a: number, b: number): number {
    const length = end - start;
    let hash: number;
    if (length <= 8) hash = mixed(Math.imul(a, 0x9e3779b1) ^ Math.imul(b ^ 0x7f4a7c15, 0x85ebca6b));
    else {
      hash = longWordHash(s, start, end);
      a = 0;
      b = length;
    }
    const front = (hash & FRONT_MASK) * 3;
    const cache = this.front;
    if (a !== 0 && cache[front] === a && cache[front + 1] === b) return cache[front + 2] as number;
    const { table, mask } = this;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const r = slot * RECORD;
      const word = table[r + 2] as number;
      if (word === 0) break;
      if (table[r] !== hash || table[r + 3] !== b) continue;
      if (a !== 0) {
        if (word === a) {
          const emission = table[r + 1] as number;
          cache[front] = a;
          cache[front + 1] = b;
          cache[front + 2] = emission;
          return emission;
        }
      } else if (word < 0 && this.sameLong(~word, s, start, length)) return table[r + 1] as number;
    }
    return this.learn(s, start, end, hash, a, b);
  }

  /** {@link lookup} for the ASCII word bytes[start … end): the same table, a string made only for a word not seen before. */
  private lookupBytes(bytes: Buffer, start: number, end: number, a: number, b: number): number {
    const length = end - start;
    let hash: number;
    if (length <= 8) hash = mixed(Math.imul(a, 0x9e3779b1) ^ Math.imul(b ^ 0x7f4a7c15, 0x85ebca6b));
    else {
      hash = FNV_OFFSET;
      for (let j = start; j < end; j++) hash = Math.imul(hash ^ (bytes[j] as number), FNV_PRIME);
      hash = mixed(hash);
      a = 0;
      b = length;
    }
    const front = (hash & FRONT_MASK) * 3;
    const cache = this.front;
    if (a !== 0 && cache[front] === a && cache[front + 1] === b) return cache[front + 2] as number;
    const { table, mask } = this;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const r = slot * RECORD;
      const word = table[r + 2] as number;
      if (word === 0) break;
      if (table[r] !== hash || table[r + 3] !== b) continue;
      if (a !== 0) {
        if (word === a) {
          const emission = table[r + 1] as number;
          cache[front] = a;
          cache[front + 1] = b;
          cache[front + 2] = emission;
          return emission;
        }
      } else if (word < 0 && this.sameLongBytes(~word, bytes, start, length)) return table[r + 1] as number;
    }
    return this.learn(bytes.toString("latin1", start, end), 0, length, hash, a, b);
  }

  private sameLongBytes(offset: number, bytes: Buffer, start: number, length: number): boolean {
    const known = this.longBytes;
    for (let j = 0; j < length; j++) if (known[offset + j] !== bytes[start + j]) return false;
    return true;
  }

  /** A word not seen before: read the way `analyze` does, then remembered. */
  private learn(s: string, start: number, end: number, hash: number, a: number, b: number): number {
    const emission = this.wordEmission(s, start, end);
    if (a === 0) a = ~this.storeLong(s, start, end - start);
    if (++this.wordCount * 2 > this.mask + 1) this.growTable();
    this.put(hash, emission, a, b);
    return emission;
  }

  /**
   * The emission of the ASCII word s[start … end), as `pushWordTerms` reads it, without its
   * general path: a lower-case word is its stem (or nothing, a stop word); a word with capitals
   * and no camelCase parts ("Deploy", "API") reads as its lower-case form, and a camelCase word
   * ("FinanceTool") as its own stem and then its parts, each read as the word it is — forms the
   * table mostly knows already (a shelf writes a word several ways, and its parts are everyday
   * words), so they are stemmed once.
   */
  private wordEmission(s: string, start: number, end: number): number {
    let upper = false;
    let digit = false;
    for (let j = start; j < end; j++) {
      const code = s.charCodeAt(j);
      if (code <= 57) digit = true;
      else if (code <= 90) upper = true;
    }
    const word = s.slice(start, end);
    if ((upper || digit) && word.length > 3 && CAMEL.test(word)) return this.camelEmission(word);
    if (upper) return this.emissionOfKnown(word.toLowerCase());
    return isStopword(word) ? NONE : this.idOf(stem(word));
  }

  private camelEmission(word: string): number {
    const lower = word.toLowerCase();
    const ids: number[] = [];
    if (!isStopword(lower)) ids.push(this.idOf(stem(lower)));
    for (const part of word.match(CAMEL_PARTS) ?? []) {
      const p = part.toLowerCase();
      if (p === lower) continue;
      // A part is one run of letters or of digits: one term, or none (a stop word).
      const emission = this.emissionOfKnown(p);
      if (emission >= 0) ids.push(emission);
    }
    if (ids.length === 0) return NONE;
    if (ids.length === 1) return ids[0] as number;
    return this.addSeveral(ids);
  }

  /** The emission of an ASCII word given as a string: through the table, like a word of a text. */
  private emissionOfKnown(word: string): number {
    const length = word.length;
    let a = 0;
    let b = 0;
    for (let j = 0; j < length; j++) {
      b = (b << 8) | (a >>> 24);
      a = (a << 8) | word.charCodeAt(j);
    }
    return this.lookup(word, 0, length, a, b);
  }

  private sameLong(offset: number, s: string, start: number, length: number): boolean {
    const bytes = this.longBytes;
    for (let j = 0; j < length; j++) if (bytes[offset + j] !== s.charCodeAt(start + j)) return false;
    return true;
  }

  private storeLong(s: string, start: number, length: number): number {
    const offset = this.longUsed;
    if (offset + length > this.longBytes.length) {
      const bigger = new Uint8Array(Math.max(this.longBytes.length * 2, offset + length));
      bigger.set(this.longBytes);
      this.longBytes = bigger;
    }
    for (let j = 0; j < length; j++) this.longBytes[offset + j] = s.charCodeAt(start + j);
    this.longUsed = offset + length;
    return offset;
  }

  private put(hash: number, emission: number, a: number, b: number): void {
    const { table, mask } = this;
    let slot = hash & mask;
    while (table[slot * RECORD + 2] !== 0) slot = (slot + 1) & mask;
    const r = slot * RECORD;
    table[r] = hash;
    table[r + 1] = emission;
    table[r + 2] = a;
    table[r + 3] = b;
  }

  private growTable(): void {
    const old = this.table;
    this.table = new Int32Array(old.length * 2);
    this.mask = this.table.length / RECORD - 1;
    for (let r = 0; r < old.length; r += RECORD) {
      if (old[r + 2] !== 0)
        this.put(old[r] as number, old[r + 1] as number, old[r + 2] as number, old[r + 3] as number);
    }
  }

  private runEmission(run: string, cls: number): number {
    let emission = this.runs.get(run);
    if (emission === undefined) {
      if (cls === CJK && run.length > 1) {
        let number = this.pendingIndex.get(run);
        if (number === undefined) {
          number = this.pendingRuns.length;
          this.pendingIndex.set(run, number);
          this.pendingRuns.push(run);
        }
        this.pendingNumber = number;
        return PENDING;
      }
      emission = this.emissionOf(run, cls);
      this.runs.set(detached(run), emission);
    }
    return emission;
  }

  /**
   * Segments the new CJK runs of the text just read in one call ({@link segmentCjkRuns}: a text
   * that has one new run mostly has many), remembers them, and puts their terms in their places
   * in `ids[0 … count)`; returns the new count.
   */
  private learnCjkRuns(count: number): number {
    const runs = this.pendingRuns;
    const segmented = segmentCjkRuns(runs);
    const emissions = runs.map((run, k) => {
      const terms: string[] = [];
      pushCjkTerms(run, terms, [], segmented[k]);
      const emission = this.emissionOfTerms(terms);
      this.runs.set(detached(run), emission);
      return emission;
    });
    const read = this.ids.slice(0, count);
    const at = this.pendingAt;
    this.clearPending();
    let out = 0;
    let next = 0;
    for (let i = 0; i < count; i++) {
      if (i === at[next]) {
        next++;
        out = this.append(out, emissions[read[i] as number] as number);
      } else out = this.append(out, read[i] as number);
    }
    return out;
  }

  private clearPending(): void {
    this.pendingRuns = [];
    this.pendingAt = [];
    this.pendingIndex.clear();
  }

  /** Puts the ids of `emission` at `ids[count …)`; returns the new count. */
  private append(count: number, emission: number): number {
    if (emission === NONE) return count;
    if (emission >= 0) {
      if (count === this.ids.length) this.grownIds(count);
      this.ids[count] = emission;
      return count + 1;
    }
    const k = -2 - emission;
    const end = this.severalStart[k + 1] as number;
    for (let j = this.severalStart[k] as number; j < end; j++) {
      if (count === this.ids.length) this.grownIds(count);
      this.ids[count++] = this.severalIds[j] as number;
    }
    return count;
  }

  /** What a word or CJK run stands for, read by tokenize.ts's own functions. */
  private emissionOf(run: string, cls: number): number {
    const terms: string[] = [];
    const words: string[] = [];
    if (cls === CJK) pushCjkTerms(run, terms, words);
    else pushWordTerms(run, terms, words);
    return this.emissionOfTerms(terms);
  }

  private emissionOfTerms(terms: readonly string[]): number {
    if (terms.length === 0) return NONE;
    if (terms.length === 1) return this.idOf(terms[0] as string);
    return this.addSeveral(terms.map((term) => this.idOf(term)));
  }

  private addSeveral(ids: readonly number[]): number {
    const k = this.severalCount;
    if (k + 2 > this.severalStart.length) {
      const bigger = new Int32Array(this.severalStart.length * 2);
      bigger.set(this.severalStart);
      this.severalStart = bigger;
    }
    const start = this.severalStart[k] as number;
    const end = start + ids.length;
    if (end > this.severalIds.length) {
      const bigger = new Int32Array(Math.max(this.severalIds.length * 2, end));
      bigger.set(this.severalIds);
      this.severalIds = bigger;
    }
    this.severalIds.set(ids, start);
    this.severalStart[k + 1] = end;
    this.severalCount = k + 1;
    return -2 - k;
  }
}

/**
 * A copy of `text` that does not point into the text it was cut from. Engines may keep a
 * long substring as a view of its parent; the vocabulary outlives skills, and must not keep
 * a removed skill's body alive through one of its words.
 */
function detached(text: string): string {
  return text.length < 13 ? text : (JSON.parse(JSON.stringify(text)) as string);
}

/** Where the stretch that holds the non-ASCII character at `i` ends: at the next ASCII separator. */
function stretchEnd(s: string, i: number): number {
  const n = s.length;
  while (++i < n) {
    const code = s.charCodeAt(i);
    if (code < 128 && ASCII_CLASS[code] === SEPARATOR) return i;
  }
  return n;
}

/** End of the run of class `cls` that goes on at `i`. */
function runEnd(s: string, i: number, cls: number): number {
  while (i < s.length) {
    const code = s.charCodeAt(i);
    if (code < 128) {
      if (cls !== WORD || ASCII_CLASS[code] !== WORD) return i;
      i++;
      continue;
    }
    const at = classAt(s, i, code);
    if ((at & 3) !== cls) return i;
    i += 1 + (at >> 2);
  }
  return i;
}

/** Words and runs a shared vocabulary may hold before it is replaced (≈ 100 bytes each). */
export const MAX_WORDS = 500_000;
let shared = new Vocabulary();

/**
 * The process's vocabulary, replaced by a new one once it holds more than `maxWords` words.
 * Term ids are only comparable within one vocabulary: a cache of term ids keeps the
 * vocabulary they came from and starts over when this returns another one.
 */
export function sharedVocabulary(maxWords = MAX_WORDS): Vocabulary {
  if (shared.words > maxWords) shared = new Vocabulary();
  return shared;
}
