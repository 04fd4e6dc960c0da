import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error: plain ESM bench modules without type declarations
import { partOf } from "../../bench/sources/build-article-set.mjs";
// @ts-expect-error: plain ESM bench modules without type declarations
import { reference } from "../../bench/sources/reference.mjs";

interface ArticleCase {
  id: string;
  page: string;
  part: string;
  variant: string;
  kind: string;
  class: string;
  expected: string;
  quote: string;
}
interface ArticlePage {
  id: string;
  part: string;
  fixture: string;
  variants: { name: string; kind: string }[];
}
const dir = "bench/sources";
const set: { split: { development: string[]; heldOut: string[] }; pages: ArticlePage[]; cases: ArticleCase[] } = JSON.parse(readFileSync(`${dir}/article-set.json`, "utf8"));
const truth: { pages: Record<string, { articleBody: string }> } = JSON.parse(readFileSync(`${dir}/articles/ground-truth.json`, "utf8"));
const EXPECTED: Record<string, string> = { genuine: "verified", altered: "partial", unsupported: "not_found" };

describe("the article set (bench/sources/article-set.json)", () => {
  it("labels every case with a class and the status that class expects, on a page and variant of the set", () => {
    const pages = new Map(set.pages.map((p) => [p.id, p]));
    expect(set.cases.length).toBeGreaterThanOrEqual(2000);
    // Problems gathered and compared once: an expect per field of 2,000 cases is slow.
    const problems = set.cases.flatMap((c) => {
      const page = pages.get(c.page);
      return [
        EXPECTED[c.class] === undefined && `${c.id}: class ${c.class}`,
        c.expected !== EXPECTED[c.class] && `${c.id}: ${c.class} labelled ${c.expected}`,
        c.quote.trim() === "" && `${c.id}: empty quote`,
        !page && `${c.id}: no page ${c.page}`,
        page && !page.variants.some((v) => v.name === c.variant) && `${c.id}: no variant ${c.variant}`,
        page && c.part !== page.part && `${c.id}: part ${c.part}, page's ${page.part}`,
      ].filter(Boolean);
    });
    expect(problems).toEqual([]);
    expect(new Set(set.cases.map((c) => c.id)).size).toBe(set.cases.length);
    const kindsByPart = new Set(set.cases.map((c) => `${c.kind} ${c.part}`));
    for (const kind of ["genuine:across-markup", "genuine:plain", "normalized:ellipsis-in-paragraph", "normalized:bracket-for-pronoun", "altered:number", "altered:negation-added", "altered:name-swapped", "altered:word-changed", "altered:spliced", "altered:bracket-negation", "altered:bracket-number", "altered:bracket-name", "altered:bracket-antonym", "made-up", "other-page", "hidden:display-none", "hidden:visibility-hidden", "hidden:hidden-attribute", "hidden:content-visibility", "hidden:stylesheet"]) {
      for (const part of ["development", "held-out"]) expect(kindsByPart.has(`${kind} ${part}`), `${kind} in ${part}`).toBe(true);
    }
  });

  it("records the split: every page in exactly one part, as the hash of its id says, about 70/30", () => {
    const { development, heldOut } = set.split;
    expect(new Set([...development, ...heldOut]).size).toBe(set.pages.length);
    expect(development.length + heldOut.length).toBe(set.pages.length);
    for (const page of set.pages) expect(page.part, page.id).toBe(partOf(page.id));
    expect(heldOut.length / set.pages.length).toBeGreaterThan(0.15);
    expect(heldOut.length / set.pages.length).toBeLessThan(0.45);
  });

  it("takes genuine and hidden quotes from the ground truth: a sentence of the page, or of another page and not of this one", () => {
    // Each page's ground truth read once (reference() is slow on long articles).
    const read = new Map(Object.entries(truth.pages).map(([id, t]) => [id, reference(t.articleBody) as string]));
    const problems: string[] = [];
    for (const c of set.cases) {
      const own = read.get(c.page) ?? "";
      const quote = reference(c.quote) as string;
      if ((c.kind.startsWith("genuine:") || c.kind.startsWith("charset:") || c.kind === "hidden-page:genuine") && !own.includes(quote)) problems.push(`${c.id}: not in the page's ground truth`);
      if (c.kind.startsWith("hidden:") || c.kind === "other-page") {
        if (own.includes(quote)) problems.push(`${c.id}: in the page's own ground truth`);
        if (![...read].some(([id, text]) => id !== c.page && text.includes(quote))) problems.push(`${c.id}: in no other page's ground truth`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("is built without Cairn: the builder and what it imports read nothing of src/, and no case carries an answer", () => {
    const modules = ["build-article-set.mjs", "article-reading.mjs", "page-variants.mjs", "reference.mjs"];
    for (const name of modules) {
      const source = readFileSync(path.join(dir, name), "utf8");
      const imports = [...source.matchAll(/from\s+"([^"]+)"/g)].map((m) => m[1] ?? "");
      for (const spec of imports) expect(spec.startsWith("node:") || (spec.startsWith("./") && modules.includes(spec.slice(2))), `${name} imports ${spec}`).toBe(true);
    }
    for (const c of set.cases) expect(Object.keys(c).sort()).toEqual(["class", "expected", "id", "kind", "lang", "page", "part", "quote", "variant"]);
  });

  it("keeps every page's fixture, and the dataset's licence beside them", () => {
    for (const page of set.pages) expect(existsSync(path.join(dir, page.fixture)), page.fixture).toBe(true);
    expect(readFileSync(`${dir}/articles/README.md`, "utf8")).toMatch(/licence: \*\*MIT\*\*/);
  });
});
