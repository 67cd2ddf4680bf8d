/** The cross-adapter conformance suite: every scenario gives the reference driver's records. */
import { conformanceScenarios, referenceDriver, runScenario } from "@skillshelf/core/testing";
import { describe, expect, it } from "vitest";
import { mastraDriver } from "./test-utils/driver.js";

/**
 * Scenarios Mastra does not pass yet, kept here so they turn red the day it does (then drop
 * them from this list). One tool-call id on two calls of a response reaches Mastra unchanged:
 * its message list keeps one call (the host tool's name, the activation's input and answer),
 * so generate() with memory loses the activation on the next message and runs the forbidden
 * tool; stream() keeps both calls but offers the skill tools differently from the reference.
 */
const KNOWN_DIVERGENT = new Set([
  "one call id on an activation and a host tool it forbids, in one response: the tool is refused on that step and the next",
  "one call id on an activation and a host tool it forbids, then a thread rebuilt from its messages: the tool stays refused",
]);

describe.each(["generate", "stream"] as const)("conformance: Mastra agent.%s()", (mode) => {
  const driver = mastraDriver(mode);
  for (const scenario of conformanceScenarios) {
    const test = KNOWN_DIVERGENT.has(scenario.name) ? it.fails : it;
    test(scenario.name, async () => {
      const expected = await runScenario(referenceDriver, scenario);
      expect(await runScenario(driver, scenario)).toEqual(expected);
    });
  }
});
