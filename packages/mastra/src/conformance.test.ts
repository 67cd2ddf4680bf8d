/** The cross-adapter conformance suite: every scenario gives the reference driver's records. */
import {
  conformanceScenarios,
  referenceDriver,
  runScenario,
  type ScenarioRecords,
} from "@skillshelf/core/testing";
import { describe, expect, it } from "vitest";
import { mastraDriver } from "./test-utils/driver.js";

/**
 * Scenarios where Mastra's records differ from the reference's only in how the skills left
 * after an activation are offered: Mastra keeps one session for the whole run, whose turn was
 * matched before the activation, and offers the other tone as `skill_tone-casual`; the
 * reference opens a session per model call, matched with the activation already made, and
 * offers it in `activate_skill`'s enum. The scenario's own checks (the activation holds, the
 * forbidden tool never runs) still apply; the full comparison is kept to turn red once fixed.
 */
const OFFERED_DIFFERENTLY = new Set([
  "one call id on an activation and a host tool it forbids, in one response: the tool is refused on that step and the next",
  "one call id on an activation and a host tool it forbids, then a thread rebuilt from its messages: the tool stays refused",
]);

/** The records without what each call offered: the tool lists, not the calls and results. */
function withoutOffers(records: ScenarioRecords) {
  return { ...records, calls: records.calls.map(({ tools: _t, skillTools: _s, ...call }) => call) };
}

describe.each(["generate", "stream"] as const)("conformance: Mastra agent.%s()", (mode) => {
  const driver = mastraDriver(mode);
  for (const scenario of conformanceScenarios) {
    it(scenario.name, async () => {
      const expected = await runScenario(referenceDriver, scenario);
      const records = await runScenario(driver, scenario);
      if (OFFERED_DIFFERENTLY.has(scenario.name))
        expect(withoutOffers(records)).toEqual(withoutOffers(expected));
      else expect(records).toEqual(expected);
    });
    if (OFFERED_DIFFERENTLY.has(scenario.name)) {
      it.fails(`${scenario.name} (offers the remaining skills as the reference does)`, async () => {
        expect(await runScenario(driver, scenario)).toEqual(await runScenario(referenceDriver, scenario));
      });
    }
  }
});
