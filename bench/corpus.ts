/**
 * Deterministic English-like text for the search benchmark and the response-size test.
 *
 * Words follow a Zipf law over a fixed vocabulary (common English words first, then
 * domain words, then made-up rare words), so single-term queries range from "in
 * nearly every document" to "in a handful"; each document also has one of a few dozen
 * topics whose words it repeats, so topic queries match a few percent of the corpus.
 * The same seed always gives the same text (mulberry32), in Node and in workerd.
 *
 * Self-contained on purpose (no imports): Node runs it with type stripping from
 * bench/*.mjs, esbuild bundles it into the bench Worker, and vitest imports it.
 */

/** A small fast PRNG with a 32-bit state: same seed, same sequence. */
export function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const COMMON = (
  "the of and to in a is that for it as with was on be by this are from or at an which have not has but were can more " +
  "their been also its one other such these than into most some new only two over would may first about when after many " +
  "between both each while where through during under however three those because against use used using data study results " +
  "market system model analysis research report based high large level time year years growth cost costs price users"
).split(" ");

const DOMAIN = (
  "database vector search index latency throughput storage cluster replica shard query queries benchmark retrieval embedding " +
  "ranking relevance document documents corpus token tokens inference training dataset evaluation accuracy precision recall " +
  "regulation policy compliance privacy security encryption audit governance contract pricing revenue margin forecast demand " +
  "supply chain logistics inventory manufacturing semiconductor battery lithium solar wind grid energy emissions carbon climate " +
  "vaccine clinical trial patients therapy dosage protein genome sequencing cell enzyme molecule compound synthesis catalyst " +
  "reactor turbine aircraft satellite orbit launch payload sensor camera lidar radar robot autonomy navigation mapping " +
  "customer retention churn acquisition funnel conversion cohort segment survey interview persona feature roadmap release " +
  "startup investor valuation funding acquisition merger competitor incumbent vendor partner channel distribution region " +
  "europe asia america africa germany japan india brazil canada france china korea mexico spain italy sweden norway " +
  "framework library runtime compiler kernel network protocol bandwidth cache memory processor accelerator hardware software"
).split(" ");

const SYLLABLES = ["ka", "lo", "mi", "ren", "tor", "vex", "zu", "pha", "dri", "qua", "sel", "nor", "bix", "tal", "gon", "yre"];

/** Made-up words for the long tail (deterministic): each one rare in the corpus. */
const RARE = (() => {
  const random = rng(7);
  const words = new Set<string>();
  while (words.size < 3000) {
    const parts = 2 + Math.floor(random() * 2);
    let word = "";
    for (let i = 0; i < parts; i++) word += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
    words.add(word);
  }
  return [...words];
})();

/** The vocabulary in Zipf rank order: rank 1 is the most frequent word. */
export const VOCABULARY: readonly string[] = [...COMMON, ...DOMAIN, ...RARE];

/** Topics: every document has one and repeats its words, so a topic word matches ~1/TOPICS.length of the corpus. */
export const TOPICS: readonly string[][] = (() => {
  const random = rng(11);
  const topics: string[][] = [];
  for (let t = 0; t < 40; t++) {
    const words: string[] = [];
    for (let i = 0; i < 6; i++) words.push(`${SYLLABLES[Math.floor(random() * SYLLABLES.length)]}${DOMAIN[Math.floor(random() * DOMAIN.length)]}`);
    topics.push(words);
  }
  return topics;
})();

// Cumulative Zipf weights (s = 1.07), searched by bisection for each word.
const CUMULATIVE = (() => {
  const weights = VOCABULARY.map((_, i) => 1 / (i + 1) ** 1.07);
  let sum = 0;
  const cumulative = weights.map((w) => (sum += w));
  return cumulative.map((c) => c / sum);
})();

function zipfWord(random: () => number): string {
  const x = random();
  let lo = 0;
  let hi = CUMULATIVE.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((CUMULATIVE[mid] ?? 1) < x) lo = mid + 1;
    else hi = mid;
  }
  return VOCABULARY[lo] ?? "the";
}

/**
 * About `chars` characters of sentences: Zipf words, the topic's words now and then, numbers,
 * punctuation. English-like for a tokenizer too (about 4–5 characters per cl100k token).
 */
export function prose(random: () => number, chars: number, topic: readonly string[] = TOPICS[0] ?? []): string {
  const out: string[] = [];
  let length = 0;
  let sentence = 0;
  while (length < chars) {
    const words = 8 + Math.floor(random() * 14);
    const parts: string[] = [];
    for (let i = 0; i < words; i++) {
      const r = random();
      if (r < 0.06 && topic.length) parts.push(topic[Math.floor(random() * topic.length)] ?? "");
      else if (r < 0.08) parts.push(String(Math.floor(random() * 10_000) / (r < 0.07 ? 1 : 100)));
      else parts.push(zipfWord(random));
    }
    let text = parts.join(" ");
    text = `${text.charAt(0).toUpperCase()}${text.slice(1)}${random() < 0.1 ? "?" : "."}`;
    if (random() < 0.15) text = text.replace(" ", ", ");
    out.push(text);
    length += text.length + 1;
    sentence++;
    if (sentence % 6 === 0) {
      out.push("\n\n");
      length += 2;
    }
  }
  return out.join(" ").replace(/ \n\n /g, "\n\n").slice(0, chars);
}

/** A title-like phrase of up to `chars` characters. */
export function titleOf(random: () => number, topic: readonly string[], chars = 80): string {
  const words: string[] = [];
  let length = 0;
  while (length < chars) {
    const word = random() < 0.3 ? (topic[Math.floor(random() * topic.length)] ?? "data") : zipfWord(random);
    words.push(word);
    length += word.length + 1;
  }
  const text = words.join(" ").slice(0, chars).trim();
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

export const ARTIFACT_TYPES_FOR_BENCH = ["finding", "source", "analysis", "dataset", "summary", "report", "note", "other"] as const;

/** The bench corpus' artifact number `n` (0-based): everything but ids and timestamps, deterministic in `n`. */
export function benchArtifact(n: number, textChars = 2000) {
  const random = rng(1_000_003 * (n + 1));
  const topicIndex = n % TOPICS.length;
  const topic = TOPICS[topicIndex] ?? [];
  const contentText = prose(random, textChars, topic);
  return {
    artifactType: ARTIFACT_TYPES_FOR_BENCH[n % ARTIFACT_TYPES_FOR_BENCH.length] ?? "finding",
    title: titleOf(random, topic, 40 + Math.floor(random() * 60)),
    contentText,
    // Structured content: what an assistant stores beside the text (a few fields, a few hundred bytes).
    content: { summary: contentText.slice(0, 160), topic: topic.slice(0, 2).join(" "), points: [contentText.slice(160, 240), contentText.slice(240, 320)] },
    confidence: Math.round(random() * 100) / 100,
    tags: [`topic-${topicIndex}`, n % 10 === 0 ? "priority" : "routine", `batch-${Math.floor(n / 10_000)}`],
    sourceUrl: n % 3 === 0 ? `https://example.com/${topic[0] ?? "doc"}/${n}` : null,
    topicIndex,
  };
}
