/**
 * A linear pre-scan that bounds how deeply a YAML text can nest, so the recursive parser
 * never sees input that would exhaust its stack. It over-counts on purpose (brackets inside
 * quoted strings count too): only absurd input comes near the limit either way.
 */
import { MAX_YAML_DEPTH } from "./limits.js";

/** True when the text may nest deeper than `limit` levels. */
export function exceedsYamlDepth(yaml: string, limit = MAX_YAML_DEPTH): boolean {
  if (withinBounds(yaml, limit)) return false;
  let flow = 0;
  let lineStart = true;
  let indent = 0;
  let indicators = 0;
  for (let i = 0; i < yaml.length; i++) {
    const c = yaml.charCodeAt(i);
    if (c === 10 /* \n */) {
      lineStart = true;
      indent = 0;
      indicators = 0;
      continue;
    }
    if (lineStart) {
      if (c === 32 /* space */) {
        // Each level indents by at least one column.
        if (++indent > limit * 4) return true;
        continue;
      }
      // `- - - x` or `? ? x`: one nesting level per indicator.
      if ((c === 45 /* - */ || c === 63) /* ? */ && yaml.charCodeAt(i + 1) === 32) {
        if (++indicators > limit) return true;
        i++;
        continue;
      }
      lineStart = false;
    }
    if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++flow > limit) return true;
    } else if ((c === 93 /* ] */ || c === 125) /* } */ && flow > 0) {
      flow--;
    }
  }
  return false;
}

/**
 * True when the text cannot exceed `limit` whatever its layout, by counts that native string
 * search gives fast: more than `limit` levels need more than `limit` opening brackets, or more
 * than `limit` `- `/`? ` indicators, or a line indented by more than `4 × limit` spaces. Real
 * frontmatter is far inside all three, and the character loop above was ≈ 5 % of a load.
 */
function withinBounds(yaml: string, limit: number): boolean {
  if (yaml.length <= limit) return true;
  let count = 0;
  for (const mark of ["[", "{", "- ", "? "]) {
    for (let at = yaml.indexOf(mark); at !== -1; at = yaml.indexOf(mark, at + 1)) {
      if (++count > limit) return false;
    }
  }
  if (deepIndent.length !== limit * 4 + 1) deepIndent = " ".repeat(limit * 4 + 1);
  return !yaml.includes(deepIndent);
}

/** The indentation no frontmatter within the limit has (kept for the last limit asked). */
let deepIndent = "";
