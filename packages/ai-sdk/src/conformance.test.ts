/**
 * The cross-adapter conformance suite: every scenario, run through the real AI SDK loop,
 * must show the model exactly what core's reference loop shows it.
 */
import { conformanceScenariosFor, referenceDriver, runScenario } from "@skillshelf/core/testing";
import { describe, expect, it } from "vitest";
import { aiSdkDriver } from "./test-utils/driver.js";

describe.each(["generate", "stream"] as const)("conformance: AI SDK %sText()", (mode) => {
  const driver = aiSdkDriver(mode);
  for (const scenario of conformanceScenariosFor(driver)) {
    it(scenario.name, async () => {
      const expected = await runScenario(referenceDriver, scenario);
      expect(await runScenario(driver, scenario)).toEqual(expected);
    });
  }
});
