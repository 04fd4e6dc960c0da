import { describe, expect, it } from "vitest";
import { RenderSlots } from "./render-slots";

describe("render slots", () => {
  it("admits an org's renders up to its bound, counts other orgs apart, and frees a slot once per release", () => {
    const slots = new RenderSlots(2);
    const first = slots.admit("org_a");
    const second = slots.admit("org_a");
    expect(first && second).toBeTruthy();
    expect(slots.admit("org_a")).toBeNull();
    // Another org is not held by org A's renders.
    expect(slots.admit("org_b")).not.toBeNull();
    first?.();
    first?.();
    expect(slots.running("org_a")).toBe(1);
    const third = slots.admit("org_a");
    expect(third).not.toBeNull();
    expect(slots.admit("org_a")).toBeNull();
    second?.();
    third?.();
    expect(slots.running("org_a")).toBe(0);
  });
});
