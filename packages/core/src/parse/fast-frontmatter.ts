/**
 * The fast path for the common frontmatter: plain `key: value` fields, lists and one level
 * of `metadata`, with no anchors, aliases, tags or directives.
 *
 * Why a second YAML library: reading the 1,000 frontmatters of the load benchmark takes
 * `yaml`'s parseDocument ≈ 35 ms in a warm process and ≈ 140 ms as the first 1,000 of a
 * fresh one (its lexer, parser and composer warming up); this path (js-yaml's event parser
 * and the walk below) ≈ 10 ms and ≈ 60 ms (bench/RESULTS.md, "Loading").
 * `yaml` stays the reference: this path gives up (returns undefined) on anything it does
 * not read exactly as `yaml` would, and parseSkill then takes the full path. A differential
 * test (fast-frontmatter.test.ts) checks both give the same result on the whole corpus,
 * the edge cases, YAML corners and thousands of seeded mutations.
 *
 * What makes the two agree:
 * - scalars are decoded by js-yaml and typed by `yaml`'s own core-schema tags (the same
 *   tests, in the same order), numbers keeping the text they were written as;
 * - anchors, aliases, explicit tags, directives, more than one document, and keys that
 *   are not single-line strings (`? [a]`, `1:`, `~:`, keys `yaml` finds too long) are
 *   refused, so there is nothing to expand (no alias bomb reaches this path) and no key to
 *   stringify differently;
 * - mappings are built with own properties only (no prototype keys), later duplicates
 *   winning as in `yaml`'s toJS; top-level duplicates stay separate pairs for normalizeMeta;
 * - each top-level key keeps the offset where it starts, which is on the line its `yaml`
 *   node starts on, so diagnostics about fields carry the same lines;
 * - a syntax error here is never reported: the full path parses again and reports it,
 *   with its position and the lenient-mode `: ` recovery.
 */
import type * as JsYaml from "js-yaml";
import type { Event, MappingEvent, ScalarEvent, SequenceEvent } from "js-yaml";
import { jsYamlLib } from "../deferred-libraries.js";
import { type FastValue, fastFrontmatter, fastPair, typedPlain, YamlMap } from "./fast-values.js";
import { MAX_YAML_DEPTH } from "./limits.js";
import type { Frontmatter, FrontmatterPair } from "./yaml-frontmatter.js";

/** Longer keys go to the full path (`yaml` counts 1,024 from the key's start to its `:`). */
const MAX_FAST_KEY_LENGTH = 256;

/** Thrown inside the walk when the document needs the full path. */
const GIVE_UP = Symbol("give up");

/**
 * The frontmatter's top-level pairs, or undefined when the fast path cannot vouch for
 * reading it exactly as the full path would (see the header). `yaml` must already have
 * passed the depth pre-scan and the size cap.
 */
// js-yaml's event ids, scalar styles and scalar decoder, taken from the library when the
// first frontmatter is read: it loads on first use (deferred-libraries.ts).
let EVENT_ID: typeof JsYaml.EVENT_ID;
let SCALAR_STYLE: typeof JsYaml.SCALAR_STYLE;
let getScalarValue: typeof JsYaml.getScalarValue;

export function readFastFrontmatter(yaml: string): Frontmatter | undefined {
  const lib = jsYamlLib();
  ({ EVENT_ID, SCALAR_STYLE, getScalarValue } = lib);
  let events: Event[];
  try {
    events = lib.parseEvents(yaml, { maxDepth: MAX_YAML_DEPTH });
  } catch {
    return undefined;
  }
  // DOCUMENT, the root mapping … its POP, the document's POP: one plain document.
  const document = events[0];
  if (
    document?.type !== EVENT_ID.DOCUMENT ||
    document.directives.length > 0 ||
    document.explicitStart ||
    document.explicitEnd ||
    events[1]?.type !== EVENT_ID.MAPPING
  ) {
    return undefined;
  }
  const walk = new EventWalk(yaml, events, 1);
  let pairs: FrontmatterPair[];
  try {
    pairs = walk.rootPairs();
  } catch {
    // GIVE_UP, or anything js-yaml throws on input it did not expect: the full path decides.
    return undefined;
  }
  if (walk.index !== events.length - 1 || events[walk.index]!.type !== EVENT_ID.POP) return undefined;
  return fastFrontmatter(pairs);
}

class EventWalk {
  constructor(
    private readonly yaml: string,
    private readonly events: Event[],
    /** The next event to read. */
    public index: number,
  ) {}

  rootPairs(): FrontmatterPair[] {
    const pairs: FrontmatterPair[] = [];
    this.mapping((key, value, at) => pairs.push(fastPair(key, value, at)));
    return pairs;
  }

  private next(): Event {
    const event = this.events[this.index++];
    if (event === undefined) throw GIVE_UP;
    return event;
  }

  /**
   * Reads the mapping whose start event is next, calling `onPair` for each pair in order
   * with the offset where its key starts.
   */
  private mapping(onPair: (key: string, value: FastValue, at: number) => void): void {
    plain(this.next() as MappingEvent);
    for (;;) {
      const event = this.next();
      if (event.type === EVENT_ID.POP) return;
      if (event.type !== EVENT_ID.SCALAR) throw GIVE_UP; // a sequence or mapping as a key
      // `yaml` rejects implicit keys over 1,024 characters or over more than one line;
      // js-yaml takes them. Such keys are left to the full path to report.
      if (event.valueEnd - event.valueStart > MAX_FAST_KEY_LENGTH || this.spansLines(event)) throw GIVE_UP;
      const key = this.scalar(event);
      if (typeof key !== "string") throw GIVE_UP; // `1:`, `true:`, `~:` — yaml stringifies these its own way
      onPair(key, this.value(), event.valueStart);
    }
  }

  private spansLines(event: ScalarEvent): boolean {
    const newline = this.yaml.indexOf("\n", event.valueStart);
    return newline !== -1 && newline < event.valueEnd;
  }

  private value(): FastValue {
    const event = this.events[this.index];
    if (event === undefined) throw GIVE_UP;
    switch (event.type) {
      case EVENT_ID.SCALAR:
        this.index++;
        return this.scalar(event);
      case EVENT_ID.SEQUENCE: {
        this.index++;
        plain(event);
        const items: FastValue[] = [];
        while (this.events[this.index]?.type !== EVENT_ID.POP) items.push(this.value());
        this.index++;
        return items;
      }
      case EVENT_ID.MAPPING: {
        const pairs: Array<[string, FastValue, number]> = [];
        this.mapping((key, value, at) => pairs.push([key, value, at]));
        return new YamlMap(pairs);
      }
      default:
        throw GIVE_UP; // an alias, or a stray document boundary
    }
  }

  private scalar(event: ScalarEvent): FastValue {
    plain(event);
    const text = getScalarValue(this.yaml, event);
    if (event.style !== SCALAR_STYLE.PLAIN) return text;
    const value = typedPlain(text);
    if (value === undefined) throw GIVE_UP; // a tag this path does not know how to keep (none in the core schema)
    return value;
  }
}

/** Anchors and explicit tags are the full path's business. */
function plain(event: ScalarEvent | SequenceEvent | MappingEvent): void {
  if (event.anchorStart !== -1 || event.tagStart !== -1) throw GIVE_UP;
}
