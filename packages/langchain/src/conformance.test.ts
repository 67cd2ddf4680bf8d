/**
 * Core's conformance scenarios on LangChain's real agent loop: every model call must see
 * what the reference agent loop's model sees.
 */
import { conformanceScenariosFor, referenceDriver, runScenario } from "@skillshelf/core/testing";
import { describe, expect, it } from "vitest";
import { langchainDriver } from "./test-utils/conformance-driver.js";

describe("conformance: LangChain gives the reference records", () => {
  for (const scenario of conformanceScenariosFor(langchainDriver)) {
    it(scenario.name, async () => {
      const expected = await runScenario(referenceDriver, scenario);
      expect(await runScenario(langchainDriver, scenario)).toEqual(expected);
    });
  }
});
