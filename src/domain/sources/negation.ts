/**
 * Words that negate what follows, in the languages the matcher meets most (English, French,
 * German, Spanish, Italian, Portuguese, Dutch). An omission marked by an ellipsis or a bracket may
 * not skip one of these: "the drug was … effective", quoting "the drug was not effective", says
 * the opposite of its source. Lower case, as normalized text is.
 */
const NEGATION_WORDS = new Set([
  // English
  "not",
  "no",
  "never",
  "neither",
  "nor",
  "none",
  "nobody",
  "nothing",
  "nowhere",
  "cannot",
  "without",
  "hardly",
  "barely",
  // French
  "ne",
  "n",
  "pas",
  "jamais",
  "aucun",
  "aucune",
  "sans",
  "ni",
  "personne",
  "rien",
  // German
  "nicht",
  "kein",
  "keine",
  "keinen",
  "keinem",
  "keiner",
  "keines",
  "nie",
  "niemals",
  "ohne",
  "weder",
  // Spanish, Italian, Portuguese
  "nunca",
  "jamás",
  "ningún",
  "ninguno",
  "ninguna",
  "sin",
  "non",
  "mai",
  "nessun",
  "nessuno",
  "nessuna",
  "senza",
  "não",
  "nenhum",
  "nenhuma",
  "sem",
  // Dutch
  "niet",
  "geen",
  "nooit",
  "zonder",
]);

/** Whether a normalized word negates: one of the words above, or an English contraction ("isn't"). */
export function isNegation(word: string): boolean {
  return NEGATION_WORDS.has(word) || word.endsWith("n't") || word.startsWith("n'");
}
