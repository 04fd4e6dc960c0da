import { describe, expect, it } from "vitest";
import { OPERATIONS } from "../../src/operations/registry";
import { faultBatteryTests, PLATFORM_SCENARIOS_WITH_OPERATIONS } from "../support/fault-battery";
import { OPERATION_SCENARIOS } from "../support/fault-scenarios";
import { PLATFORM_SCENARIOS } from "../support/platform-fault-scenarios";

/**
 * The fault battery (test/support/fault-battery.ts) over every write operation of the registry: each storage call it
 * makes fails in turn, and nothing is lost or doubled; and two of the platform's writers (PLATFORM_SCENARIOS_WITH_OPERATIONS,
 * so the two files take about as long). The rest of the platform's are fault-battery-platform.test.ts's, run beside
 * this file in a runtime of its own.
 */
describe("fault battery: every storage call of every write fails in turn, and nothing is lost", () => {
  it("covers every write operation of the registry", () => {
    const writes = OPERATIONS.filter((operation) => !operation.annotations.readOnlyHint).map((operation) => operation.name);
    const covered = new Set(OPERATION_SCENARIOS.map((scenario) => scenario.name.split(" ")[0]));
    expect(writes.filter((name) => !covered.has(name))).toEqual([]);
  });

  faultBatteryTests([...OPERATION_SCENARIOS, ...PLATFORM_SCENARIOS.filter((scenario) => PLATFORM_SCENARIOS_WITH_OPERATIONS.has(scenario.name))]);
});
