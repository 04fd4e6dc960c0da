import { describe, expect, it } from "vitest";
import { uncitedUnits } from "./paragraph-citations";

const grounded = new Set(["E1", "E2"]);

describe("paragraph-level citations", () => {
  it("names each paragraph and list item without a grounded citation, by position and first words", () => {
    const report = [
      "# Solid-state batteries",
      "",
      "Lab cells reached 400 Wh/kg [E1].",
      "",
      "Costs will fall below lithium-ion by 2027 according to several analysts in the field.",
      "",
      "- Density is proven in the lab [E2]",
      "- Manufacturing at scale is unproven",
      "1. Cited only by an unknown ref [E9]",
      "",
      "A paragraph that runs",
      "over two lines [E1, E4].",
    ].join("\n");
    expect(uncitedUnits(report, grounded)).toEqual([
      { position: 2, kind: "paragraph", start: "Costs will fall below lithium-ion by 2027 according…" },
      { position: 4, kind: "list item", start: "Manufacturing at scale is unproven" },
      { position: 5, kind: "list item", start: "Cited only by an unknown ref [E9]" },
    ]);
  });

  it("exempts method, limitations, sources and unverified sections, UNVERIFIED lines, tables and code", () => {
    const report = [
      "## Method",
      "Depth standard, 2 rounds, 3 researchers.",
      "## Findings",
      "Density doubled [E1].",
      "Cost: UNVERIFIED, no source found.",
      "| a | b |",
      "|---|---|",
      "```",
      "not prose",
      "```",
      "## Confidence & limitations",
      "We could not reach manufacturers.",
      "## Sources",
      "- E1: https://example.org/one",
    ].join("\n\n");
    expect(uncitedUnits(report, grounded)).toEqual([]);
  });
});
