/**
 * A deliverable as a Word document (DOCX), made with the `docx` package (pure JavaScript, runs in the Worker).
 * Its Markdown goes through the dashboard's one renderer (escaped, bounded: markdown.ts) and the HTML that makes is
 * mapped to Word's own parts: headings, paragraphs, bulleted and numbered lists (nested), bold, italic,
 * strikethrough, code, links (http, https and mailto only), block quotes, code blocks and tables. Markdown past the
 * renderer's limits, and any other media type, is given as its text, a paragraph per line. Each cited [E#] is an
 * internal link to its source's bookmark in the sources section that ends the document (titled by sourcesSectionOf).
 */
import {
  AlignmentType,
  Bookmark,
  BorderStyle,
  Document,
  ExternalHyperlink,
  HeadingLevel,
  InternalHyperlink,
  LevelFormat,
  Paragraph,
  type ParagraphChild,
  ShadingType,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
} from "docx";
import { checkedText, type DownloadSource, sourcesSectionOf, sourceStatusText } from "../../domain/research/downloads";
import type { ResearchOutput } from "../../domain/research/outputs";
import type { RenderedMarkdown } from "../../storage/rendered-outputs";
import { bodyPlaceholder, writeDocx } from "./docx-package";
import { type HtmlNode, parseHtml } from "./html-tree";
import { citedRefOfHref, linkCitedRefs } from "./html";

type Element = HtmlNode & { kind: "element" };
type Block = Paragraph | Table;

const MONO = "Courier New";
const ORDERED = "ordered";
const HEADINGS = [HeadingLevel.HEADING_1, HeadingLevel.HEADING_2, HeadingLevel.HEADING_3, HeadingLevel.HEADING_4, HeadingLevel.HEADING_5, HeadingLevel.HEADING_6];
const SAFE_LINK = /^(https?:|mailto:)/i;

/** A source's bookmark in the document (Word's names: a letter first, then letters, digits and underscores). */
const bookmarkOf = (ref: string) => `source_${ref}`;

interface RunStyle {
  bold?: boolean;
  italics?: boolean;
  strike?: boolean;
  mono?: boolean;
}

/** What the mapping carries down the tree: list depth, quote indentation, and a counter giving each numbered list its own numbering. */
interface Context {
  listDepth: number;
  quoteDepth: number;
  lists: { next: number };
}

const textRun = (text: string, style: RunStyle, extra: { break?: number; link?: boolean } = {}) =>
  new TextRun({
    text,
    bold: style.bold,
    italics: style.italics,
    strike: style.strike,
    ...(style.mono ? { font: MONO } : {}),
    ...(extra.link ? { style: "Hyperlink" } : {}),
    ...(extra.break ? { break: extra.break } : {}),
  });

/** The runs of inline content: text with its emphasis, line breaks, links, images and task boxes as text. */
function inlines(nodes: readonly HtmlNode[], style: RunStyle = {}): ParagraphChild[] {
  const runs: ParagraphChild[] = [];
  for (const node of nodes) {
    if (node.kind === "text") {
      // Between block tags micromark writes a newline; inside a paragraph a newline is a soft break: a space.
      const text = node.text.replace(/\n/g, " ");
      if (text) runs.push(textRun(text, style));
      continue;
    }
    switch (node.name) {
      case "strong":
        runs.push(...inlines(node.children, { ...style, bold: true }));
        break;
      case "em":
        runs.push(...inlines(node.children, { ...style, italics: true }));
        break;
      case "del":
        runs.push(...inlines(node.children, { ...style, strike: true }));
        break;
      case "code":
        runs.push(...inlines(node.children, { ...style, mono: true }));
        break;
      case "br":
        runs.push(textRun("", style, { break: 1 }));
        break;
      case "img":
        runs.push(textRun(`[image: ${node.attrs.alt ?? ""}]`, { ...style, italics: true }));
        break;
      case "input":
        runs.push(textRun(node.attrs.checked !== undefined ? "☒ " : "☐ ", style));
        break;
      case "a": {
        // A link holds runs, not other links: its text, as one run in the link style.
        const href = node.attrs.href ?? "";
        const text = textOnly(node.children).replace(/\n/g, " ");
        const cited = citedRefOfHref(href);
        if (cited && text) runs.push(new InternalHyperlink({ anchor: bookmarkOf(cited), children: [textRun(text, style, { link: true })] }));
        else if (SAFE_LINK.test(href) && text) runs.push(new ExternalHyperlink({ link: href, children: [textRun(text, style, { link: true })] }));
        else runs.push(...inlines(node.children, style));
        break;
      }
      default:
        runs.push(...inlines(node.children, style));
    }
  }
  return runs;
}

/** The text of a subtree, as read. */
function textOnly(nodes: readonly HtmlNode[]): string {
  return nodes.map((node) => (node.kind === "text" ? node.text : node.name === "br" ? "\n" : textOnly(node.children))).join("");
}

const INLINE = new Set(["strong", "em", "del", "code", "a", "br", "img", "input", "sup", "sub", "span"]);
const isInline = (node: HtmlNode) => node.kind === "text" || INLINE.has(node.name);

const quoteIndent = (ctx: Context) => (ctx.quoteDepth ? { indent: { left: 720 * ctx.quoteDepth } } : {});

/** A list item: its inline text is one paragraph with the list's marker; its blocks (loose items, nested lists) follow. */
function listItem(item: Element, ordered: boolean, instance: number, ctx: Context): Block[] {
  const level = Math.min(ctx.listDepth, 8);
  const marker = ordered ? { numbering: { reference: ORDERED, level, instance } } : { bullet: { level } };
  const out: Block[] = [];
  let first = true;
  let pending: HtmlNode[] = [];
  const flush = () => {
    const runs = inlines(pending);
    pending = [];
    if (runs.length === 0) return;
    out.push(new Paragraph({ children: runs, ...(first ? marker : { indent: { left: 720 * (level + 1) } }) }));
    first = false;
  };
  for (const child of item.children) {
    if (child.kind === "text" || isInline(child)) {
      if (child.kind === "text" && child.text.trim() === "" && pending.length === 0) continue;
      pending.push(child);
    } else if (child.name === "p") {
      flush();
      pending = [...child.children];
      flush();
    } else {
      flush();
      out.push(...blocks([child], { ...ctx, listDepth: ctx.listDepth + 1 }));
    }
  }
  flush();
  if (first) out.unshift(new Paragraph({ children: [], ...marker }));
  return out;
}

function table(node: Element): Table {
  const rows: { cells: Element[]; header: boolean }[] = [];
  const collect = (parent: Element, header: boolean) => {
    for (const child of parent.children) {
      if (child.kind !== "element") continue;
      if (child.name === "thead") collect(child, true);
      else if (child.name === "tbody") collect(child, false);
      else if (child.name === "tr") rows.push({ cells: child.children.filter((c): c is Element => c.kind === "element" && (c.name === "td" || c.name === "th")), header });
    }
  };
  collect(node, false);
  return new Table({
    width: { size: 100, type: WidthType.PERCENTAGE },
    rows: rows.map(
      ({ cells, header }) =>
        new TableRow({
          tableHeader: header,
          children: (cells.length ? cells : []).map((cell) => {
            const align = cell.attrs.align === "center" ? AlignmentType.CENTER : cell.attrs.align === "right" ? AlignmentType.RIGHT : undefined;
            return new TableCell({ children: [new Paragraph({ children: inlines(cell.children, { bold: cell.name === "th" }), ...(align ? { alignment: align } : {}) })] });
          }),
        }),
    ),
  });
}

/** A code block: a paragraph per line, monospaced, shaded. */
function codeBlock(text: string, ctx: Context): Paragraph[] {
  return text
    .replace(/\n$/, "")
    .split("\n")
    .map((line) => new Paragraph({ children: [textRun(line, { mono: true })], shading: { type: ShadingType.CLEAR, fill: "F4F5F7", color: "auto" }, spacing: { after: 0 }, ...quoteIndent(ctx) }));
}

function blocks(nodes: readonly HtmlNode[], ctx: Context): Block[] {
  const out: Block[] = [];
  let loose: HtmlNode[] = [];
  const flushLoose = () => {
    const runs = inlines(loose);
    loose = [];
    if (runs.length) out.push(new Paragraph({ children: runs, ...quoteIndent(ctx) }));
  };
  for (const node of nodes) {
    if (isInline(node)) {
      if (!(node.kind === "text" && node.text.trim() === "")) loose.push(node);
      continue;
    }
    flushLoose();
    if (node.kind !== "element") continue;
    const heading = /^h([1-6])$/.exec(node.name);
    if (heading) {
      out.push(new Paragraph({ heading: HEADINGS[Number(heading[1]) - 1], children: inlines(node.children) }));
    } else if (node.name === "p") {
      out.push(new Paragraph({ children: inlines(node.children), ...quoteIndent(ctx) }));
    } else if (node.name === "ul" || node.name === "ol") {
      const instance = node.name === "ol" ? ctx.lists.next++ : 0;
      for (const item of node.children) if (item.kind === "element" && item.name === "li") out.push(...listItem(item, node.name === "ol", instance, ctx));
    } else if (node.name === "blockquote") {
      out.push(...blocks(node.children, { ...ctx, quoteDepth: ctx.quoteDepth + 1 }));
    } else if (node.name === "pre") {
      out.push(...codeBlock(textOnly(node.children), ctx));
    } else if (node.name === "table") {
      out.push(table(node));
    } else if (node.name === "hr") {
      out.push(new Paragraph({ children: [], border: { bottom: { style: BorderStyle.SINGLE, size: 6, color: "999999", space: 1 } } }));
    } else {
      out.push(...blocks(node.children, ctx));
    }
  }
  flushLoose();
  return out;
}

/** The sources section; each listed source's ref is the bookmark its inline [E#] links lead to. */
function sourceParagraphs(output: Pick<ResearchOutput, "mediaType" | "content">, sources: readonly DownloadSource[]): Paragraph[] {
  const section = sourcesSectionOf(output);
  const heading = new Paragraph({ heading: HeadingLevel.HEADING_2, children: [new TextRun(section.title)] });
  if (sources.length === 0) return [heading, new Paragraph({ children: [new TextRun(section.none)] })];
  const instance = 1_000_000;
  return [
    heading,
    ...sources.map((source) => {
      const children: ParagraphChild[] = [];
      if (source.ref) children.push(new Bookmark({ id: bookmarkOf(source.ref), children: [new TextRun({ text: `[${source.ref}] `, bold: true })] }));
      children.push(new TextRun(source.title));
      if (source.url) {
        children.push(new TextRun(" — "));
        children.push(SAFE_LINK.test(source.url) ? new ExternalHyperlink({ link: source.url, children: [new TextRun({ text: source.url, style: "Hyperlink" })] }) : new TextRun(source.url));
      }
      children.push(new TextRun({ text: ` — ${sourceStatusText(source.verification)}, ${checkedText(source.verification)}`, italics: true }));
      return new Paragraph({ children, numbering: { reference: ORDERED, level: 0, instance } });
    }),
  ];
}

/** Top-level nodes of the rendered HTML mapped between two pauses. */
const NODES_PER_PAUSE = 8;

/**
 * The body: the rendered Markdown mapped (each cited [E#] an internal link to its source), or the text a paragraph per
 * line. Mapped a few top-level nodes at a time with `pause` between (a list or table stays whole), so a long
 * deliverable's mapping does not hold the instance from other requests.
 */
async function bodyBlocks(output: Pick<ResearchOutput, "mediaType" | "content">, rendered: RenderedMarkdown | null, sources: readonly DownloadSource[], pause: () => Promise<void>): Promise<Block[]> {
  if (output.mediaType === "markdown" && rendered?.kind === "html") {
    const nodes = parseHtml(linkCitedRefs(rendered.html, sources));
    // One context for every group: numbered lists go on counting across them.
    const ctx: Context = { listDepth: 0, quoteDepth: 0, lists: { next: 1 } };
    const out: Block[] = [];
    for (let start = 0; start < nodes.length; ) {
      // A group ends after a block element: top-level inline content (between blocks, only line breaks) stays with its neighbours.
      let end = Math.min(nodes.length, start + NODES_PER_PAUSE);
      while (end < nodes.length && isInline(nodes[end - 1] as HtmlNode)) end++;
      if (start > 0) await pause();
      out.push(...blocks(nodes.slice(start, end), ctx));
      start = end;
    }
    return out;
  }
  return output.content.split("\n").map((line) => new Paragraph({ children: [textRun(line, output.mediaType === "markdown" ? {} : { mono: true })] }));
}

const NUMBERING_LEVELS = Array.from({ length: 9 }, (_, level) => ({
  level,
  format: LevelFormat.DECIMAL,
  text: `%${level + 1}.`,
  alignment: AlignmentType.START,
  style: { paragraph: { indent: { left: 720 * (level + 1), hanging: 360 } } },
}));

/** Raise it whenever what a deliverable's DOCX holds changes (the mapping, the docx package): every kept DOCX is made anew once. */
export const DOCX_RENDERER = 3;

/**
 * The document's bytes. `rendered` is what the Markdown rendered to (markdown.ts `renderForPage`, kept per version
 * by rendered-deliverable.ts), or null for another media type. `pause` is awaited between parts of the work (mapping,
 * writing out), so a long document lets the instance's other requests run while it is made.
 */
export async function docxOf(
  output: Pick<ResearchOutput, "title" | "mediaType" | "content" | "version" | "updatedAt">,
  rendered: RenderedMarkdown | null,
  sources: readonly DownloadSource[],
  pause: () => Promise<void> = async () => undefined,
): Promise<Uint8Array> {
  const meta = `Version ${output.version}, updated ${new Date(output.updatedAt).toISOString().slice(0, 10)}`;
  const content: Block[] = [
    new Paragraph({ heading: HeadingLevel.TITLE, children: [new TextRun(output.title)] }),
    new Paragraph({ children: [new TextRun({ text: meta, italics: true, color: "5B636E" })] }),
    ...(await bodyBlocks(output, rendered, sources, pause)),
    ...sourceParagraphs(output, sources),
  ];
  const doc = new Document({
    title: output.title,
    creator: "Cairn",
    numbering: { config: [{ reference: ORDERED, levels: NUMBERING_LEVELS }] },
    sections: [{ children: [bodyPlaceholder()] }],
  });
  return writeDocx(doc, content, pause);
}
