import { describe, expect, it } from "vitest";
import {
  type ConformanceDriver,
  conformanceScenarios,
  conformanceScenariosFor,
  referenceDriver,
  runScenario,
} from "./index.js";

// The reference records are the contract every adapter is compared with: each scenario's own
// expectations run on them here, so a core change that breaks a behaviour fails in core first.
describe("conformance scenarios on the reference driver", () => {
  for (const scenario of conformanceScenarios) {
    it(scenario.name, async () => {
      const records = await runScenario(referenceDriver, scenario);
      expect(records.calls.length).toBeGreaterThan(0);
    });
  }
});

describe("the suite catches a diverging adapter", () => {
  const first = conformanceScenarios[0]!;

  it("one that words a refusal differently", async () => {
    const rewording: ConformanceDriver = {
      name: "rewording",
      conversation: (options) =>
        referenceDriver.conversation({
          ...options,
          model: (view) =>
            options.model({
              ...view,
              messages: view.messages.map((m) =>
                m.role === "tool" && (m.result as { status?: string })?.status === "error"
                  ? { ...m, result: { ...(m.result as object), message: "Not allowed." } }
                  : m,
              ),
            }),
        }),
    };
    expect(await runScenario(rewording, first)).not.toEqual(await runScenario(referenceDriver, first));
  });

  it("one that skips the guard", async () => {
    const unguarded: ConformanceDriver = {
      name: "unguarded",
      conversation: (options) => {
        const open = options.shelf.openSession.bind(options.shelf);
        const shelf = {
          ...options.shelf,
          refresh: options.shelf.refresh,
          roles: options.shelf.roles,
          openSession: async (o: Parameters<typeof open>[0]) => {
            const session = await open(o);
            return Object.assign(Object.create(session), { guard: () => ({ allowed: true }) });
          },
        } as typeof options.shelf;
        return referenceDriver.conversation({ ...options, shelf });
      },
    };
    await expect(runScenario(unguarded, first)).rejects.toThrow(/conformance/);
  });

  // The edited-pin scenarios pass on a driver that never edits anything unless one of them
  // shows the edit: the swapped pin refuses the skill's own tool only if the edit arrived.
  it("one whose tamper edits nothing", async () => {
    const swapped = conformanceScenarios.find((s) => s.name.includes("swap reader's read_file"))!;
    const inert: ConformanceDriver = {
      name: "inert",
      tamper: true,
      conversation: async (options) => ({ ...(await referenceDriver.conversation(options)), tamper() {} }),
    };
    await expect(runScenario(inert, swapped)).rejects.toThrow(/conformance: neither tool is offered/);
  });
});

describe("a driver whose framework asks no approvals", () => {
  const { approvals: _none, ...unasked } = referenceDriver;
  it("skips only the scenarios that need one (a host tool's, or every call's)", () => {
    const asking = conformanceScenarios.filter((s) => s.approvalTools?.length || s.approveEveryCall);
    expect(asking.length).toBe(4);
    expect(conformanceScenariosFor(unasked)).toEqual(conformanceScenarios.filter((s) => !asking.includes(s)));
  });
});

describe("a driver that cannot edit its stored conversation", () => {
  const plain: ConformanceDriver = {
    name: "plain",
    clientTools: true,
    approvals: true,
    conversation: async (options) => {
      const { tamper: _none, ...rest } = await referenceDriver.conversation(options);
      return rest;
    },
  };
  const tampering = conformanceScenarios.filter((s) => s.turns.some((t) => t.tamper));

  it("skips only the scenarios that edit it", () => {
    expect(tampering.length).toBeGreaterThan(0);
    expect(conformanceScenariosFor(plain)).toEqual(
      conformanceScenarios.filter((s) => !tampering.includes(s)),
    );
    expect(conformanceScenariosFor(referenceDriver)).toEqual(conformanceScenarios);
  });

  it("is told so when it runs one anyway", async () => {
    await expect(runScenario(plain, tampering[0]!)).rejects.toThrow(
      /plain cannot edit a stored conversation/,
    );
  });
});
