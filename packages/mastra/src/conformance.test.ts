/** The cross-adapter conformance suite: every scenario gives the reference driver's records. */
import { conformanceScenariosFor, referenceDriver, runScenario } from "@skillshelf/core/testing";
import { describe, expect, it } from "vitest";
import { mastraDriver } from "./test-utils/driver.js";

describe.each(["generate", "stream"] as const)("conformance: Mastra agent.%s()", (mode) => {
  const driver = mastraDriver(mode);
  for (const scenario of conformanceScenariosFor(driver)) {
    it(scenario.name, async () => {
      const expected = await runScenario(referenceDriver, scenario);
      expect(await runScenario(driver, scenario)).toEqual(expected);
    });
  }
});
