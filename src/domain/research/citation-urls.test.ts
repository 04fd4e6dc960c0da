import { describe, expect, it } from "vitest";
import { CITATION_URL_LIMITS, checkCitationUrls, mismatchedCitationUrlsProblem, reportedMismatches } from "./citation-urls";
import { LINK_LIMITS } from "./deliverable-links";

const sources = [
  { ref: "E1", url: "https://stats.example/prices" },
  { ref: "E2", url: "https://shop.example/discounts?page=1" },
];

describe("checkCitationUrls", () => {
  it("passes citations whose URL is their source's, under the links' normalization, and citations without a url", () => {
    const citations = [{ ref: "E1", url: "HTTP://Stats.example:80/prices/#table" }, { ref: "E2", url: "https://shop.example/discounts?page=1" }, { ref: "E1" }, {}];
    expect(checkCitationUrls(citations, sources)).toEqual({ unlisted: [], mismatched: [] });
  });

  it("names a URL no source has, once, as written, and not one the content's links already named", () => {
    const citations = [{ url: "https://made-up.example/1" }, { url: "https://made-up.example/1/" }, { url: "https://shop.example/discounts?page=2" }, { url: "https://named.example/x" }];
    expect(checkCitationUrls(citations, sources, ["https://NAMED.example/x#top"]).unlisted).toEqual(["https://made-up.example/1", "https://shop.example/discounts?page=2"]);
  });

  it("names a source's ref paired with another page's URL, whether that page is another source or none", () => {
    const citations = [
      { ref: "E1", url: "https://shop.example/discounts?page=1" },
      { ref: "E2", url: "https://made-up.example/x" },
      { ref: "E2", url: "https://made-up.example/x/" },
    ];
    const { unlisted, mismatched } = checkCitationUrls(citations, sources);
    expect(mismatched).toEqual([
      { ref: "E1", url: "https://shop.example/discounts?page=1", sourceUrl: "https://stats.example/prices" },
      { ref: "E2", url: "https://made-up.example/x", sourceUrl: "https://shop.example/discounts?page=1" },
    ]);
    expect(unlisted).toEqual(["https://made-up.example/x"]);
  });

  it("leaves refs that are not sources to the unknown-ref check", () => {
    const citations = [{ ref: "E9", url: "https://stats.example/prices" }, { ref: "C1", url: "https://stats.example/prices" }];
    expect(checkCitationUrls(citations, sources)).toEqual({ unlisted: [], mismatched: [] });
  });
});

describe("mismatchedCitationUrlsProblem", () => {
  it("is null with nothing to name, and names the first 5 with how many more, each address clipped", () => {
    expect(mismatchedCitationUrlsProblem([])).toBeNull();
    const long = `https://made-up.example/${"x".repeat(400)}`;
    const mismatched = Array.from({ length: 25 }, (_, i) => ({ ref: `E${i + 1}`, url: i === 0 ? long : `https://made-up.example/${i}`, sourceUrl: i === 0 ? long : `https://real.example/${i}` }));
    const problem = mismatchedCitationUrlsProblem(mismatched) as string;
    const clipped = `${long.slice(0, LINK_LIMITS.shownChars)}…`;
    expect(problem).toContain(`E1 with ${clipped} (E1 is ${clipped}); E2 with`);
    expect(problem).toContain(`E${CITATION_URL_LIMITS.named} with https://made-up.example/4 (E5 is https://real.example/4); and 20 more.`);
    expect(problem).not.toContain("E6 ");
  });

  it("shares the room of the unlisted links named beside it, always naming one", () => {
    const mismatched = Array.from({ length: 8 }, (_, i) => ({ ref: `E${i + 1}`, url: `https://made-up.example/${i}`, sourceUrl: `https://real.example/${i}` }));
    expect(mismatchedCitationUrlsProblem(mismatched, 4)).toContain("E3 with https://made-up.example/2 (E3 is https://real.example/2); and 5 more.");
    expect(mismatchedCitationUrlsProblem(mismatched, 30)).toContain(": E1 with https://made-up.example/0 (E1 is https://real.example/0); and 7 more.");
    expect(reportedMismatches(mismatched, 15)).toHaveLength(5);
    expect(reportedMismatches(mismatched, 40)).toEqual([{ ref: "E1", url: "https://made-up.example/0" }]);
  });

  it("lists the first 10 in a report, the citation's address clipped and the source's left to the ledger", () => {
    const mismatched = Array.from({ length: 25 }, (_, i) => ({ ref: `E${i + 1}`, url: `https://made-up.example/${i}/${"x".repeat(400)}`, sourceUrl: `https://real.example/${i}` }));
    const reported = reportedMismatches(mismatched);
    expect(reported).toHaveLength(CITATION_URL_LIMITS.reported);
    expect(reported[0]).toEqual({ ref: "E1", url: `${mismatched[0]?.url.slice(0, LINK_LIMITS.shownChars)}…` });
  });
});
