import { describe, expect, it } from "vitest";
import type { ScalarTag } from "yaml";
import { CORE_BOOL, CORE_NULL, NEEDS_TAGS, NUMBER_LIKE, plainScalarValue } from "./plain-scalar.js";
import { yamlCoreSchema, yamlLib } from "./yaml-lib.js";

const tags = () =>
  yamlCoreSchema().tags.filter(
    (tag): tag is ScalarTag => tag.default === true && (tag as ScalarTag).test !== undefined,
  );

/** What `yaml`'s core schema makes of a plain scalar: the first tag whose test matches resolves it. */
function byTags(text: string): unknown {
  for (const tag of tags()) {
    if (!tag.test!.test(text)) continue;
    const resolved = tag.resolve(text, () => undefined, {} as Parameters<ScalarTag["resolve"]>[2]);
    return yamlLib().isScalar(resolved) ? resolved.value : resolved;
  }
  return text;
}

const SAMPLES = [
  ...["", "~", "null", "Null", "NULL", "nULL", "nul", "nullish", "~~", " null"],
  ...["true", "True", "TRUE", "tRUE", "false", "False", "FALSE", "fALSE", "yes", "no", "on", "off", "y", "n"],
  ...["t", "f", "trueish", "falsey", "release-notes", "Writes release notes.", "a: b", "#x", "é", "中文"],
  ...["0", "1", "-1", "+1", "007", "0x1F", "0o17", "0b101", "1e3", "1.5", ".5", "-.5", "1.0.0", "1_000"],
  ...[".inf", "-.inf", "+.Inf", ".nan", ".NaN", ".NAN", "-", "+", ".", "-foo", "+bar", ".hidden", "9lives"],
];

describe("plainScalarValue", () => {
  it("uses yaml's own core-schema tests for null and bool, and leaves every other tag's matches to the tags", () => {
    const [nullTag, boolTag, ...numberTags] = tags();
    expect(nullTag?.test?.source).toBe(CORE_NULL.source);
    expect(boolTag?.test?.source).toBe(CORE_BOOL.source);
    expect(numberTags.length).toBeGreaterThan(0);
    // Each number tag's pattern only matches text NUMBER_LIKE sends to the tags.
    for (const tag of numberTags)
      expect(tag.test!.source).toMatch(/^\^(?:\(\?:)?(?:\[-\+\]\?|0[ox]|\[0-9\]|\\\.)/);
    for (const text of SAMPLES)
      if (numberTags.some((tag) => tag.test!.test(text))) expect(NUMBER_LIKE.test(text)).toBe(true);
  });

  it("gives what yaml's core schema gives, for every sample it answers without the tags", () => {
    for (const text of SAMPLES) {
      const value = plainScalarValue(text);
      if (value === NEEDS_TAGS) expect(NUMBER_LIKE.test(text)).toBe(true);
      else expect([text, value]).toEqual([text, byTags(text)]);
    }
  });
});
