import { it } from "vitest";

async function run(html: string, setup: (r: HTMLRewriter, log: (...a: unknown[]) => void) => HTMLRewriter) {
  const events: string[] = [];
  const log = (...a: unknown[]) => events.push(a.map((x) => JSON.stringify(x)).join(" "));
  try {
    const out = setup(new HTMLRewriter(), log).transform(new Response(html));
    await out.body?.pipeTo(new WritableStream());
  } catch (e) {
    events.push(`THREW ${String(e)}`);
  }
  console.log(events.join("\n"));
}

it("probe", async () => {
  const html = `<table><tr><th>A &amp; B</th><td>x<b>bold &lt;y&gt;</b>z&nbsp;&#x41;<td>unclosed<script>alert("no")</script></tr><tr><td>second</table><a href="/x?a=1&amp;b=2" title="&quot;q&quot;">link &copy;</a><title>T &amp; t</title><h1>One<h2>Two</h2>`;
  await run(html, (r, log) =>
    r
      .on("td, th, tr, table, a, h1, h2, script, title", {
        element(el) {
          log("start", el.tagName, [...el.attributes]);
          try {
            el.onEndTag((end) => log("end", end.name));
          } catch (e) {
            log("onEndTag threw", String(e));
          }
        },
      })
      .on("td", { text(t) { log("td-text", t.text, t.lastInTextNode); } })
      .onDocument({ text(t) { log("doc-text", t.text, t.lastInTextNode); }, end() { log("docend"); } }),
  );
  const big = `<div data-x="${"a".repeat(2_000_000)}">after</div><p>ok</p>`;
  await run(big, (r, log) => r.on("div", { element(el) { log("div", (el.getAttribute("data-x") ?? "").length); } }).onDocument({ text(t) { if (t.text) log("text", t.text); } }));
  const big2 = `<div data-x="${"a".repeat(500_000)}">after</div><p>ok</p>`;
  await run(big2, (r, log) => r.on("div", { element(el) { log("div", (el.getAttribute("data-x") ?? "").length); } }).onDocument({ text(t) { if (t.text) log("text", t.text); } }));
  const bigNoHandler = `<div data-x="${"a".repeat(2_000_000)}">after</div><p>ok</p>`;
  await run(bigNoHandler, (r, log) => r.on("p", { element(el) { log("p", el.tagName); } }).onDocument({ text(t) { if (t.text) log("text", t.text.length); } }));
  await run(`<p>unterminated <script>var a = "</p>";`, (r, log) => r.on("script", { element(el) { el.onEndTag(() => log("script end")); } }).onDocument({ text(t) { log("text", t.text); }, end() { log("end"); } }));
  await run(`<svg><title>svg title</title></svg><title>real</title><textarea><b>x</b></textarea><template><td>t</td></template>`, (r, log) => r.on("title, b, td", { element(el) { log("el", el.tagName, el.namespaceURI); } }).onDocument({ text(t) { log("text", t.text); } }));
});
