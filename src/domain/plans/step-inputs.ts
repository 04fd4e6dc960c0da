import type { Step } from "./model";

/**
 * The earlier steps a step builds on: the nearest earlier step outside its own parallel group, and when that step
 * belongs to a parallel group, every earlier member of that group (a reviewer after parallel synthesis reads all
 * the workers). Steps of the caller's own group run beside it, not before it, so they are not its inputs.
 */
export function stepsBuiltOn(steps: readonly Step[], step: Step): Step[] {
  const earlier = steps.filter((candidate) => candidate.stepOrder < step.stepOrder).sort((a, b) => a.stepOrder - b.stepOrder);
  const outside = earlier.filter((candidate) => step.parallelGroup === null || candidate.parallelGroup !== step.parallelGroup);
  const anchor = outside[outside.length - 1];
  if (!anchor) return [];
  if (anchor.parallelGroup === null) return [anchor];
  return outside.filter((candidate) => candidate.parallelGroup === anchor.parallelGroup);
}
