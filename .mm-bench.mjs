import { parse, postprocess, preprocess } from "micromark";
import { gfmAutolinkLiteral } from "micromark-extension-gfm-autolink-literal";
function events(text) {
  return postprocess(parse({ extensions: [gfmAutolinkLiteral()] }).document().write(preprocess()(text, undefined, true)));
}
const N = 1_000_000;
const cases = {
  prose: ("Some text with a [link](https://example.com/a_(b)) and https://x.org/y. and `https://code` and <https://auto.com>.\n\n").repeat(N / 110),
  brackets: "[".repeat(N),
  bracketsClose: "[a](".repeat(N / 4),
  parens: "[a](https://x.com/" + "(".repeat(N - 20),
  urls: "https://".repeat(N / 8),
  www: "www.".repeat(N / 4),
  lt: "<".repeat(N),
  stars: "*a_".repeat(N / 3),
  backticks: "`".repeat(N),
  backticks2: "`a``b```c".repeat(N / 9),
  defs: "[a]: https://x.com\n".repeat(N / 19),
  nested: "[".repeat(N/2) + "]".repeat(N/2),
  bangs: "![".repeat(N/2),
  labels: "[a]".repeat(N/3),
  emails: "a@b.".repeat(N/4),
};
for (const [name, text] of Object.entries(cases)) {
  const t = performance.now();
  let ev;
  try { ev = events(text); } catch (e) { console.log(name, "ERR", e.message); continue; }
  console.log(name.padEnd(14), (performance.now() - t).toFixed(0), "ms", ev.length, "events");
}
