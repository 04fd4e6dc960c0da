/**
 * Bounded views of stored text (issue 4: every response has a bounded size). A cut is always visible:
 * clipped text ends in "…", and the callers report what they cut and how to read it whole.
 */

export const ELLIPSIS = "…";

/** `text` cut to at most `max` characters (the last one "…"), never splitting a surrogate pair. */
export function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}${ELLIPSIS}`;
}

export const clipNullable = (text: string | null, max: number): string | null => (text === null ? null : clipText(text, max));

export interface JsonBudget {
  /** Longer strings are clipped to this many characters. */
  stringChars: number;
  /** Characters of JSON the whole value may take; entries that no longer fit are left out. */
  budget: number;
}

const OMIT = Symbol("omit");

interface Walk {
  remaining: number;
  clipped: boolean;
}

/** Spends `cost` characters if they are left. */
const spend = (walk: Walk, cost: number) => {
  if (cost > walk.remaining) return false;
  walk.remaining -= cost;
  return true;
};

function walkValue(value: unknown, limits: JsonBudget, walk: Walk): unknown {
  if (typeof value === "string") {
    const text = clipText(value, limits.stringChars);
    if (text !== value) walk.clipped = true;
    return spend(walk, JSON.stringify(text).length) ? text : OMIT;
  }
  if (Array.isArray(value)) {
    if (!spend(walk, 2)) return OMIT;
    const items: unknown[] = [];
    for (const item of value) {
      const kept = walkValue(item, limits, walk);
      if (kept === OMIT || !spend(walk, 1)) {
        walk.clipped = true;
        break;
      }
      items.push(kept);
    }
    return items;
  }
  if (value !== null && typeof value === "object") {
    if (!spend(walk, 2)) return OMIT;
    const entries: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const kept = spend(walk, JSON.stringify(key).length + 2) ? walkValue(item, limits, walk) : OMIT;
      if (kept === OMIT) {
        walk.clipped = true;
        break;
      }
      entries[key] = kept;
    }
    return entries;
  }
  const json = JSON.stringify(value);
  return json === undefined || spend(walk, json.length) ? value : OMIT;
}

/** A JSON value within `limits`: long strings clipped, and whatever does not fit left out. */
export function clipJson(value: unknown, limits: JsonBudget): { value: unknown; clipped: boolean } {
  const walk: Walk = { remaining: limits.budget, clipped: false };
  const kept = walkValue(value, limits, walk);
  return kept === OMIT ? { value: null, clipped: true } : { value: kept, clipped: walk.clipped };
}

/**
 * A record within `limits`, entry by entry in stored order: each value clipped as clipJson does, and once the budget
 * is spent the remaining entries left out. `clippedKeys` names every entry cut or left out.
 */
export function clipRecord(record: Record<string, unknown>, limits: JsonBudget): { record: Record<string, unknown>; clippedKeys: string[] } {
  const walk: Walk = { remaining: limits.budget, clipped: false };
  const kept: Record<string, unknown> = {};
  const clippedKeys: string[] = [];
  for (const [key, value] of Object.entries(record)) {
    walk.clipped = false;
    const before = walk.remaining;
    const item = spend(walk, JSON.stringify(key).length + 2) ? walkValue(value, limits, walk) : OMIT;
    if (item === OMIT) {
      walk.remaining = before; // a smaller entry further on may still fit
      clippedKeys.push(key);
      continue;
    }
    kept[key] = item;
    if (walk.clipped) clippedKeys.push(key);
  }
  return { record: kept, clippedKeys };
}
