import { describe, expect, it } from "vitest";
import { DEFAULT_SESSION_CONFIG } from "./config";
import { deriveBranches, deriveGaps, deriveSources } from "./derive";
import type { SearchSession, StepInput } from "./model";
import { appendStep, startSession } from "./steps";

function build(steps: Omit<StepInput, "stepNumber" | "nextStepNeeded">[]): SearchSession {
  const [first, ...rest] = steps;
  let session = startSession({ sessionId: "srch_x", orgId: "org", createdBy: "usr" }, { ...first, searchStep: first?.searchStep ?? "s", stepNumber: 1, nextStepNeeded: true }, 0, DEFAULT_SESSION_CONFIG);
  rest.forEach((input, i) => {
    session = appendStep(session, { ...input, sessionId: "srch_x", stepNumber: i + 2, nextStepNeeded: true }, i + 1, DEFAULT_SESSION_CONFIG).session;
  });
  return session;
}

describe("knowledge gaps", () => {
  it("counts a gap addressed only when a later step brings a source on it, not when a step merely mentions it", () => {
    const session = build([
      { searchStep: "Surveyed solid-state battery makers", knowledgeGap: "Manufacturing yield unknown" },
      { searchStep: "Manufacturing yield still unknown; looked at pilot lines", sources: [{ url: "https://a.example/pilot", title: "Pilot lines", snippet: "three pilot lines announced" }] },
      { searchStep: "Yield figures", sources: [{ url: "https://b.example/yield", title: "Cell manufacturing", snippet: "manufacturing yield reached 90 % at the pilot plant" }] },
    ]);
    expect(deriveGaps(session.steps)).toEqual([{ gapId: "G1", text: "Manufacturing yield unknown", openedAtStep: 1, status: "addressed", addressedAtStep: 3 }]);
    const mentioned = build([
      { searchStep: "Surveyed makers", knowledgeGap: "Manufacturing yield unknown" },
      { searchStep: "Manufacturing yield unknown still" },
    ]);
    expect(deriveGaps(mentioned.steps)[0]).toMatchObject({ status: "open", addressedAtStep: null });
  });

  it("opens a gap and addresses it with the first later step whose sources hold its key terms", () => {
    const session = build([
      { searchStep: "Surveyed vector databases", knowledgeGap: "Query latency on mobile hardware?" },
      { searchStep: "Looked at licensing terms" },
      { searchStep: "Benchmarks", sources: [{ url: "https://a.example/bench", title: "Mobile latency", snippet: "query latency measured on phones and mobile hardware" }] },
      { searchStep: "Mobile query latency again" },
    ]);
    expect(deriveGaps(session.steps)).toEqual([{ gapId: "G1", text: "Query latency on mobile hardware?", openedAtStep: 1, status: "addressed", addressedAtStep: 3 }]);
  });

  it("does not count the step that noted the gap, and keeps a repeated gap as one", () => {
    const session = build([
      { searchStep: "Pricing of managed offerings", knowledgeGap: "pricing of managed offerings" },
      { searchStep: "Unrelated reading", knowledgeGap: "Pricing of  managed offerings" },
    ]);
    const gaps = deriveGaps(session.steps);
    expect(gaps).toHaveLength(1);
    expect(gaps[0]).toMatchObject({ status: "open", addressedAtStep: null });
  });
});

describe("sources and branches", () => {
  it("numbers sources by first appearance and keeps the ref of a URL attached again", () => {
    const session = build([
      { searchStep: "a", sources: [{ url: "https://x.example/1", title: "One" }, { url: "https://x.example/2/", title: "Two" }] },
      { searchStep: "b", sources: [{ url: "https://x.example/2", title: "Two again" }, { url: "https://x.example/3", title: "Three" }] },
    ]);
    expect(deriveSources(session.steps).map((s) => [s.ref, s.title, s.steps])).toEqual([
      ["S1", "One", [1]],
      ["S2", "Two", [1, 2]],
      ["S3", "Three", [2]],
    ]);
  });

  it("tracks branches by id with the step each started from", () => {
    const session = build([{ searchStep: "a" }, { searchStep: "b", branchId: "tech", branchFromStep: 1 }, { searchStep: "c" }, { searchStep: "d", branchId: "tech" }]);
    expect(deriveBranches(session.steps)).toEqual([{ branchId: "tech", fromStep: 1, steps: [2, 4] }]);
  });
});
