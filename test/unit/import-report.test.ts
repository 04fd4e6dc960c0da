import { describe, expect, it } from "vitest";
// @ts-expect-error: plain ESM scripts without type declarations
import { importReport } from "../../scripts/lib/org-data-commands.mjs";

describe("the CLI's import summary", () => {
  it("counts plans and search sessions once (their index rows are not listed again beside them)", () => {
    const text: string = importReport("acme", {
      plans: 8,
      searchSessions: 2,
      snapshots: 3,
      clientTexts: 0,
      rows: { plans: 8, search_sessions: 2, artifacts: 5, research_outputs: 1 },
      members: { restored: 1, notRestored: 0 },
      skipped: {},
      orgHasAdmin: true,
    });
    const first = text.split("\n")[0] ?? "";
    expect(first).toBe('Imported into "acme": 8 plans, 2 search sessions, 3 page snapshots, 0 texts assistants sent for pages, 5 artifacts, 1 research_outputs.');
    expect(first.match(/8 plans/g)).toHaveLength(1);
    // Plans an import put on hold for a person's approval are named beside them.
    const held: string = importReport("acme", { plans: 3, plansAwaitingApproval: 2, searchSessions: 0, rows: {}, members: { restored: 0, notRestored: 0 }, skipped: {}, orgHasAdmin: true });
    expect(held.split("\n")[0]).toContain("3 plans (2 waiting for a person's approval here), 0 search sessions");
  });
});
