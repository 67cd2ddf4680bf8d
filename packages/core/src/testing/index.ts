/**
 * `@skillshelf/core/testing`: the cross-adapter conformance suite. An adapter implements a
 * `ConformanceDriver` for its framework and checks that every scenario gives the same
 * records as `referenceDriver`:
 *
 *   for (const scenario of conformanceScenarios)
 *     it(scenario.name, async () =>
 *       expect(await runScenario(myDriver, scenario)).toEqual(await runScenario(referenceDriver, scenario)));
 */
export type {
  ConformanceDriver,
  ConversationEdit,
  DriverConversation,
  DriverOptions,
  HostTool,
  ModelReply,
  ModelView,
  ScriptedCall,
  ScriptedModel,
  SeenMessage,
  SeenTool,
} from "./driver.js";
export { MAX_STEPS, referenceDriver } from "./reference-driver.js";
export {
  type CallRecord,
  conformanceScenarios,
  conformanceScenariosFor,
  runScenario,
  type Scenario,
  type ScenarioRecords,
} from "./scenarios.js";
export { tamperedResult, tamperedState } from "./tamper.js";
export {
  GIT_REPORT,
  type GitReportFixture,
  gitReportFixture,
  WORKFLOW_STEPS,
  WORKFLOW_TOOL,
  type WorkflowFixture,
  workflowFixture,
} from "./workflow-fixture.js";
