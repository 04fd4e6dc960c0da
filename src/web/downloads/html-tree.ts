/**
 * The rendered Markdown's HTML read back as a tree, for the DOCX download. It reads only what micromark writes
 * (markdown.ts): every `<` in its output opens a tag, text and attribute values have `&`, `<`, `>` and `"` encoded,
 * attributes are `name="value"`. One pass over the string, no backtracking: linear in its length.
 */

export type HtmlNode = { kind: "text"; text: string } | { kind: "element"; name: string; attrs: Record<string, string>; children: HtmlNode[] };

const VOID = new Set(["br", "hr", "img", "input"]);
const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,6});/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "\ufffd";
    }
    return NAMED[name.toLowerCase()] ?? whole;
  });
}

function attributesOf(tag: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const match of tag.matchAll(/([a-zA-Z][\w-]*)="([^"]*)"/g)) attrs[(match[1] as string).toLowerCase()] = decodeEntities(match[2] as string);
  return attrs;
}

export function parseHtml(html: string): HtmlNode[] {
  const root: HtmlNode & { kind: "element" } = { kind: "element", name: "#root", attrs: {}, children: [] };
  const stack: (HtmlNode & { kind: "element" })[] = [root];
  let at = 0;
  while (at < html.length) {
    const open = html.indexOf("<", at);
    const textEnd = open === -1 ? html.length : open;
    const current = stack[stack.length - 1] as HtmlNode & { kind: "element" };
    if (textEnd > at) current.children.push({ kind: "text", text: decodeEntities(html.slice(at, textEnd)) });
    if (open === -1) break;
    const close = html.indexOf(">", open);
    if (close === -1) {
      current.children.push({ kind: "text", text: decodeEntities(html.slice(open)) });
      break;
    }
    const tag = html.slice(open + 1, close);
    at = close + 1;
    const name = /^\/?([a-zA-Z][a-zA-Z0-9]*)/.exec(tag)?.[1]?.toLowerCase();
    if (!name) continue;
    if (tag.startsWith("/")) {
      const index = stack.map((node) => node.name).lastIndexOf(name);
      if (index > 0) stack.length = index;
      continue;
    }
    const element: HtmlNode & { kind: "element" } = { kind: "element", name, attrs: attributesOf(tag), children: [] };
    current.children.push(element);
    if (!VOID.has(name) && !tag.endsWith("/")) stack.push(element);
  }
  return root.children;
}
