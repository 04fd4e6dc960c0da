import { describe, expect, it } from "vitest";
import { afterRevocation, afterRotation, decideRefresh, INITIAL_ROTATION_STATE, REFRESH_GRACE_MS, REMEMBERED_GENERATIONS, scopesBeyondGrant } from "./refresh-rotation";

describe("refresh rotation policy", () => {
  it("rotates the first token it sees and then only the current one", () => {
    expect(decideRefresh(INITIAL_ROTATION_STATE, "t0", 0)).toEqual({ kind: "rotate" });
    const s1 = afterRotation(INITIAL_ROTATION_STATE, "t0", "t1", 1_000);
    expect(decideRefresh(s1, "t1", 2_000)).toEqual({ kind: "rotate" });
  });

  it("replays for the immediately preceding token within the grace window only", () => {
    const s1 = afterRotation(INITIAL_ROTATION_STATE, "t0", "t1", 1_000);
    expect(decideRefresh(s1, "t0", 1_000 + REFRESH_GRACE_MS)).toEqual({ kind: "replay" });
    expect(decideRefresh(s1, "t0", 1_001 + REFRESH_GRACE_MS)).toEqual({ kind: "revoke", reason: "previous_after_grace" });
  });

  it("revokes on any older generation, and refuses unknown tokens without revoking", () => {
    const s1 = afterRotation(INITIAL_ROTATION_STATE, "t0", "t1", 1_000);
    const s2 = afterRotation(s1, "t1", "t2", 2_000);
    expect(decideRefresh(s2, "t0", 2_001)).toEqual({ kind: "revoke", reason: "older_generation" });
    expect(decideRefresh(s2, "t1", 2_001)).toEqual({ kind: "replay" });
    expect(decideRefresh(s2, "guess", 2_001)).toEqual({ kind: "refuse", reason: "unknown_token" });
    expect(decideRefresh(afterRevocation(s2), "t2", 2_001)).toEqual({ kind: "refuse", reason: "revoked" });
  });

  it("remembers a bounded number of generations", () => {
    let state = INITIAL_ROTATION_STATE;
    for (let i = 0; i < REMEMBERED_GENERATIONS + 10; i++) state = afterRotation(state, `t${i}`, `t${i + 1}`, i);
    expect(state.older).toHaveLength(REMEMBERED_GENERATIONS);
    expect(state.older[0]).toBe(`t${REMEMBERED_GENERATIONS + 8}`);
  });
});

describe("scope on refresh", () => {
  it("allows the grant's scopes or fewer, and names what is beyond", () => {
    const granted = ["research:read", "research:write"];
    expect(scopesBeyondGrant(null, granted)).toEqual([]);
    expect(scopesBeyondGrant("research:read", granted)).toEqual([]);
    expect(scopesBeyondGrant("research:read org:admin", granted)).toEqual(["org:admin"]);
  });
});
