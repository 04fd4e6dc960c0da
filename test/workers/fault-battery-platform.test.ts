import { describe } from "vitest";
import { faultBatteryTests, PLATFORM_SCENARIOS_WITH_OPERATIONS } from "../support/fault-battery";
import { PLATFORM_SCENARIOS } from "../support/platform-fault-scenarios";
import { SOURCE_SCENARIOS } from "../support/source-fault-scenarios";

/**
 * The fault battery (test/support/fault-battery.ts) over the writers the platform runs (webhook consumer, plan alarm,
 * org import and erasure, retention cron, the source-check consumer, a re-check after delivery): each storage call
 * fails in turn, and nothing is lost or doubled; those of PLATFORM_SCENARIOS_WITH_OPERATIONS run in
 * fault-battery.test.ts instead. A file of its own beside that one, so the two halves run at once on two cores.
 */
describe("fault battery: every storage call of the platform's own writers fails in turn, and nothing is lost", () => {
  faultBatteryTests([...PLATFORM_SCENARIOS.filter((scenario) => !PLATFORM_SCENARIOS_WITH_OPERATIONS.has(scenario.name)), ...SOURCE_SCENARIOS]);
});
