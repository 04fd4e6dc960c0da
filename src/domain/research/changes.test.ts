import { describe, expect, it } from "vitest";
import { CHANGE_LIMITS, deliverableChanges, headingsOf } from "./changes";

const previous = {
  content: "# Solid-state batteries\n\n## Density\n\nCells reached 400 Wh/kg in the lab [C1].\n\n## Costs\n\nCosts stay high.\n",
  claims: [
    { subtopic: "Density", text: "Solid-state cells reached 400 Wh/kg in the lab" },
    { subtopic: "Costs", text: "Costs remain higher than lithium-ion cells" },
  ],
  sourceUrls: ["https://a.example/one", "https://b.example/two"],
};

const current = {
  content: "# Solid-state batteries\n\n## Density\n\nCells reached 500 Wh/kg in the lab [C1].\n\n## Production\n\nA pilot line opened in 2026.\n",
  claims: [
    { subtopic: "Density", text: "Solid-state cells reached 500 Wh/kg in the lab" },
    { subtopic: "Production", text: "A pilot production line opened" },
  ],
  sourceUrls: ["https://a.example/one/", "https://c.example/three"],
};

describe("what changed between two deliverables", () => {
  it("says which sections, claims, sources and numbers changed, in a summary a person reads", () => {
    const changes = deliverableChanges(previous, current);
    expect(changes.sections).toEqual({ added: ["Production"], removed: ["Costs"] });
    expect(changes.claims.changed).toEqual([{ before: previous.claims[0]?.text, after: current.claims[0]?.text }]);
    expect(changes.claims.new).toEqual(["A pilot production line opened"]);
    expect(changes.claims.dropped).toEqual(["Costs remain higher than lithium-ion cells"]);
    // The trailing slash is the same page.
    expect(changes.sources).toEqual({ new: ["https://c.example/three"], gone: ["https://b.example/two"] });
    expect(changes.numbers).toEqual([{ before: "400", after: "500", context: current.claims[0]?.text }]);
    expect(changes.summary).toBe("Since the previous run: sections: 1 added, 1 removed; claims: 1 new, 1 dropped, 1 changed; sources: 1 new, 1 gone; 1 number changed.");
    expect(changes.clipped).toBe(false);
  });

  it("matches claims by meaning, not position: a reworded claim with the same figure is not a change of number", () => {
    const changes = deliverableChanges(
      { content: "", claims: [{ subtopic: "X", text: "The plant employs 300 people in Leeds" }], sourceUrls: [] },
      { content: "", claims: [{ subtopic: "Y", text: "Unrelated claim about tariffs" }, { subtopic: "X", text: "The Leeds plant employs 300 people" }], sourceUrls: [] },
    );
    expect(changes.claims.changed).toHaveLength(1);
    expect(changes.claims.new).toEqual(["Unrelated claim about tariffs"]);
    expect(changes.numbers).toEqual([]);
  });

  it("finds changed figures in matching sentences when the claims did not carry them", () => {
    const changes = deliverableChanges(
      { content: "Prices fell to 120 dollars per kWh in 2025.", claims: [], sourceUrls: [] },
      { content: "Prices fell to 95 dollars per kWh in 2025.", claims: [], sourceUrls: [] },
    );
    expect(changes.numbers).toEqual([{ before: "120", after: "95", context: "Prices fell to 95 dollars per kWh in 2025." }]);
  });

  it("says plainly when nothing changed", () => {
    expect(deliverableChanges(previous, previous).summary).toBe("Nothing changed since the previous run: the same sections, claims, sources and figures.");
  });

  it("reads headings outside code fences only", () => {
    expect(headingsOf("# One\n```\n# not a heading\n```\n### Two ###\n")).toEqual(["One", "Two"]);
  });

  it("stays bounded on big deliverables and says the lists are clipped", () => {
    // Words without digits (digits are figures, set aside when texts are matched), distinct per claim.
    const word = (i: number, salt: string) => `${salt}${i.toString(26).replace(/./g, (c) => String.fromCharCode(97 + Number.parseInt(c, 26)))}`;
    const many = (prefix: string) => Array.from({ length: 1_000 }, (_, i) => ({ subtopic: word(i, prefix), text: `${word(i, prefix)} ${word(i, "q")}${prefix} ${word(i * 7, "z")}${prefix}` }));
    const started = performance.now();
    const changes = deliverableChanges({ content: "", claims: many("old"), sourceUrls: [] }, { content: "", claims: many("new"), sourceUrls: Array.from({ length: 5_000 }, (_, i) => `https://x.example/${i}`) });
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(changes.claims.new).toHaveLength(CHANGE_LIMITS.listed);
    expect(changes.sources.new).toHaveLength(CHANGE_LIMITS.listed);
    expect(changes.clipped).toBe(true);
    expect(changes.summary).toContain(`claims: ${CHANGE_LIMITS.claims} new`);
  });
});
