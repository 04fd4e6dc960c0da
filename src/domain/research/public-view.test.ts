import { describe, expect, it } from "vitest";
import { PENDING } from "../sources/verification";
import type { ResearchOutput } from "./outputs";
import { publicDeliverable } from "./public-view";

const output: ResearchOutput = {
  outputId: "out_secretid",
  orgId: "org_secretorg",
  planId: "plan_secretplan",
  executionId: "exec_secret",
  title: "Battery report",
  mediaType: "markdown",
  content: "Cells reached 500 Wh/kg [E2] [C1].",
  formattingInstructions: "Internal: keep Project Falcon out of it",
  citations: [{ ref: "E2", title: "Lab news" }, { title: "A book", url: "https://book.example/" }],
  version: 3,
  createdBy: "usr_secretuser",
  createdAt: 1,
  updatedAt: 2,
};

const source = (ref: string, url: string) => ({ ref, title: `Source ${ref}`, url, quote: `quote ${ref}`, verification: { ...PENDING, status: "verified" as const } });

describe("the public view of a deliverable", () => {
  it("holds its text, version, date, citations and the sources it cites with their checks, and nothing else of the org", () => {
    const view = publicDeliverable(output, [source("E1", "https://uncited.example/"), source("E2", "https://cited.example/")]);
    expect(Object.keys(view).sort()).toEqual(["citations", "content", "mediaType", "sources", "title", "updatedAt", "version"]);
    expect(view).toMatchObject({ title: "Battery report", content: output.content, version: 3, updatedAt: 2 });
    expect(view.sources).toEqual([
      { ref: "E2", title: "Source E2", url: "https://cited.example/", quote: "quote E2", verification: expect.objectContaining({ status: "verified" }) },
      { ref: null, title: "A book", url: "https://book.example/", quote: null, verification: null },
    ]);
    const serialized = JSON.stringify(view);
    for (const secret of ["secretid", "secretorg", "secretplan", "exec_secret", "secretuser", "Falcon", "uncited.example"]) expect(serialized).not.toContain(secret);
  });

  it("carries no comments: people's comments on the deliverable stay in the org, even handed a record that has them", () => {
    const commented = { ...output, comments: [{ commentId: "cmt_secret", body: "Falcon budget is wrong" }] } as typeof output;
    const serialized = JSON.stringify(publicDeliverable(commented, []));
    for (const secret of ["cmt_secret", "Falcon", "comments"]) expect(serialized).not.toContain(secret);
  });
});
