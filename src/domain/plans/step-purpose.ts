/**
 * A step's purpose in words, for a person: the opening of its instructions without what only the assistant
 * needs (tool and field names, argument objects, asides in parentheses), cut at a word, never inside one.
 * The instructions stay whole where the assistant reads them and fold away where a person does.
 */

export const STEP_PURPOSE_CHARS = 140;
/** Clauses are added until the purpose says at least this much ("Assess round 1:" alone says nothing). */
const ENOUGH_CHARS = 40;

/** snake_case names (tools, fields, enum values): the assistant's vocabulary, not a person's. */
const SNAKE_NAME = /\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g;
/** "with record_evidence", "(request_user_review)", "call get_evidence_ledger": the tool and the word that leads to it. */
const TOOL_PHRASE = /\b(?:with|using|via|through|by calling|call|calls)\s+[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/gi;
/** camelCase names (highStakes, workerId) read as words. */
const CAMEL_NAME = /\b([a-z]+)([A-Z][a-zA-Z]*)\b/g;

/** Removes (…), {…} and […] groups, nested ones too: asides and argument shapes. */
function withoutGroups(text: string): string {
  let out = "";
  let depth = 0;
  for (const char of text) {
    if (char === "(" || char === "{" || char === "[") depth++;
    else if ((char === ")" || char === "}" || char === "]") && depth > 0) depth--;
    else if (depth === 0) out += char;
  }
  return out;
}

/** Cut at a word within `chars` (a single word longer than half of it is cut where it must be). */
export function clipAtWord(text: string, chars: number): string {
  if (text.length <= chars) return text;
  const head = text.slice(0, chars - 1);
  const space = head.lastIndexOf(" ");
  const cut = space >= chars / 2 ? head.slice(0, space) : head;
  return `${cut.replace(/[\s,;:–-]+$/, "")}…`;
}

export function stepPurpose(instructions: string, chars = STEP_PURPOSE_CHARS): string {
  const words = withoutGroups(instructions.replace(/\s+/g, " "))
    .replace(TOOL_PHRASE, "")
    .replace(SNAKE_NAME, "")
    .replace(CAMEL_NAME, (_, head: string, tail: string) => `${head} ${tail.replace(/([A-Z])/g, " $1").trim().toLowerCase()}`)
    .replace(/\s+([,;:.?!])/g, "$1")
    .replace(/([,;:])(?:\s*[,;:])+/g, "$1")
    .replace(/\s{2,}/g, " ")
    .trim()
    .replace(/^[,;:.\s]+/, "");
  // Clause by clause (a sentence's end, a semicolon) until it says enough.
  const clauses = words.split(/(?<=[.;?!])\s+/);
  let purpose = "";
  for (const clause of clauses) {
    purpose = purpose ? `${purpose} ${clause}` : clause;
    if (purpose.length >= ENOUGH_CHARS) break;
  }
  purpose = purpose.replace(/[\s,;:]+$/, "").replace(/\.$/, "");
  if (!purpose) purpose = instructions.replace(/\s+/g, " ").trim();
  return clipAtWord(purpose, chars);
}
