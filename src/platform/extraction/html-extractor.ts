import { ExtractionCollector } from "../../domain/research/extraction/collector";
import { type Extraction, EXTRACTION_LIMITS, type ExtractOptions, type HtmlExtractor } from "../../domain/research/extraction/model";
import { decodeEntities, parseBaseUrl } from "../../domain/research/extraction/text";
import { pageReader } from "../html/page-reader";

/**
 * HTML extraction through the one page reader (src/platform/html/page-reader.ts),
 * over the runtime's streaming HTMLRewriter (lol-html): the reader says what a
 * reader of the page does not see (its text is not extracted) and bounds the
 * elements and nesting read. What lol-html does not do for us, and this file does:
 * - it hands over text and attribute values undecoded (`&amp;` stays `&amp;`),
 *   so text is gathered raw and decoded once complete (a reference can be
 *   split across chunks);
 * - it builds no tree and closes nothing implicitly: the end-tag handler of an
 *   unclosed element fires only when an ancestor closes (or never), and text
 *   after it still counts as inside it; so a new cell, row, link or heading
 *   closes the previous one here, and whatever is open is closed at the end;
 * - every call into a JavaScript handler costs far more than the parsing
 *   around it, so text is asked for only inside the elements that collect it
 *   (text elsewhere never crosses into JavaScript), end-tag handlers are used
 *   only where nothing else can close the state, and one document may cause
 *   at most MAX_HANDLER_CALLS calls;
 * - text handlers also see the text of script and style elements inside the
 *   element, which is dropped here.
 * When the read stops early (a bound of the reader's or this file's), what was
 * extracted up to there is returned, marked truncated: extract_data answers with
 * a partial result that says it is partial.
 */

/** Text gathered raw, bounded: whitespace runs collapse when it grows, and beyond `cap` it is cut. */
class Sink {
  raw = "";
  overflow = false;
  constructor(
    private readonly cap: number,
    /** False for JSON, whose strings must stay as written. */
    private readonly collapse = true,
  ) {}

  push(text: string): void {
    if (this.overflow) return;
    this.raw += text;
    if (this.raw.length > this.cap) {
      if (this.collapse) this.raw = this.raw.replace(/\s+/g, " ");
      if (this.raw.length > this.cap) {
        this.raw = this.raw.slice(0, this.cap);
        this.overflow = true;
      }
    }
  }
}

/** Room for character references and markup-free whitespace before the text is normalized and clipped. */
const rawCap = (chars: number) => chars * 4 + 64;

interface Cell {
  sink: Sink;
  span: number;
}

interface Row {
  cells: Cell[];
  header: boolean;
}

interface TableBuilder {
  rows: Row[];
  row: Row | null;
  cell: Cell | null;
  inHead: boolean;
  /** Rows or cells were dropped past the limits. */
  overflow: boolean;
}

interface LinkBuilder {
  href: string;
  label: string;
  sink: Sink;
}

/** What the handlers are registered on before the read starts: HTMLRewriter's `on`, recorded. */
interface Handlers {
  on(selector: string, handler: HTMLRewriterElementContentHandlers): Handlers;
}

interface HeadingBuilder {
  level: number;
  sink: Sink;
}

/** Elements whose start separates the text before from the text after, inside a collecting element. */
const SEPARATORS = ["br", "p", "div", "li", "dt", "dd", "hr", "tr", "td", "th"];
const HEADINGS = ["h1", "h2", "h3", "h4", "h5", "h6"];
/**
 * Calls into the handlers one document may cause. Each costs far more than
 * the parsing around it, so this (not the byte limit alone) bounds the time a
 * document of a million tiny elements can take; past it, extraction stops and
 * the result is marked truncated.
 */
export const MAX_HANDLER_CALLS = 100_000;

const attribute = (element: Element, name: string) => decodeEntities(element.getAttribute(name) ?? "");

export function extractHtml(html: string, options: ExtractOptions): Promise<Extraction> {
  const out = new ExtractionCollector(options.kinds, options.baseUrl);
  const tables: TableBuilder[] = [];
  const openTables: TableBuilder[] = [];
  let calls = 0;
  let svg = 0;
  let jsonLd: Sink | null = null;
  let title: Sink | null = null;
  let titleSeen = false;
  let link: LinkBuilder | null = null;
  let heading: HeadingBuilder | null = null;
  let baseSeen = false;
  const meta = { description: "", ogDescription: "", ogTitle: "" };

  /** The shared reader: what is hidden now, end tags, and how to stop the read. */
  const reader = pageReader();
  const state = reader.state;
  /** Counts one handler call; stops the read once the budget is spent. */
  const tick = () => {
    if (++calls > MAX_HANDLER_CALLS) state.stop("extraction handler budget spent");
  };

  const finishLink = () => {
    if (!link) return;
    const { href, label, sink } = link;
    link = null;
    if (sink.overflow) out.truncated = true;
    out.addLink(href, out.text(sink.raw, EXTRACTION_LIMITS.linkTextChars) || out.text(label, EXTRACTION_LIMITS.linkTextChars, false));
  };

  const finishHeading = () => {
    if (!heading) return;
    const { level, sink } = heading;
    heading = null;
    if (sink.overflow) out.truncated = true;
    out.addHeading(level, out.text(sink.raw, EXTRACTION_LIMITS.headingChars));
  };

  const finishTitle = () => {
    if (!title) return;
    if (title.overflow) out.truncated = true;
    out.setTitle(out.text(title.raw, EXTRACTION_LIMITS.titleChars));
    title = null;
  };

  const finishJsonLd = () => {
    if (!jsonLd) return;
    if (jsonLd.overflow) out.truncated = true;
    else out.addJsonLd(jsonLd.raw);
    jsonLd = null;
  };

  const currentTable = () => openTables[openTables.length - 1];

  const closeRow = (table: TableBuilder) => {
    table.cell = null;
    table.row = null;
  };

  const startRow = (table: TableBuilder): Row | null => {
    closeRow(table);
    if (table.rows.length >= EXTRACTION_LIMITS.rowsPerTable) {
      table.overflow = true;
      return null;
    }
    const row: Row = { cells: [], header: table.inHead };
    table.rows.push(row);
    table.row = row;
    return row;
  };

  /**
   * Each collecting element has its own text handler: lol-html calls it for the
   * text inside that element as it sees the document (so not for text after an
   * explicit end tag), once per chunk however deeply such elements nest. The
   * open sink of that kind takes the text.
   */
  const collect = (push: (text: string) => void): HTMLRewriterElementContentHandlers => ({
    text(chunk) {
      tick();
      if (chunk.text !== "" && state.hidden === 0) push(chunk.text);
    },
  });

  // The handlers, added to the reader's rewriter (which keeps what is hidden) when the read starts.
  const handlers: [string, HTMLRewriterElementContentHandlers][] = [];
  const chain: Handlers = {
    on(selector, handler) {
      handlers.push([selector, handler]);
      return chain;
    },
  };
  let rewriter = chain.on("script", {
    element(element) {
      tick();
      finishJsonLd();
      const type = (element.getAttribute("type") ?? "").split(";")[0]?.trim().toLowerCase();
      const sink = type === "application/ld+json" && out.wants("metadata") ? new Sink(EXTRACTION_LIMITS.jsonLdChars, false) : null;
      jsonLd = sink;
      if (sink) state.onEnd(element, () => {
        if (jsonLd === sink) finishJsonLd();
      });
    },
  });

  const containers = [
    ...(out.wants("tables") ? ["td", "th"] : []),
    ...(out.wants("links") ? ["a[href]"] : []),
    ...(out.wants("headings") ? HEADINGS : []),
  ];
  if (containers.length > 0) {
    rewriter = rewriter.on(containers.flatMap((container) => SEPARATORS.map((separator) => `${container} ${separator}`)).join(", "), {
      element() {
        tick();
        if (state.hidden > 0) return;
        currentTable()?.cell?.sink.push(" ");
        link?.sink.push(" ");
        heading?.sink.push(" ");
      },
    });
  }

  if (out.wants("metadata")) {
    rewriter = rewriter
      .on("svg", {
        element(element) {
          tick();
          svg++;
          state.onEnd(element, () => {
            svg = Math.max(0, svg - 1);
          });
        },
      })
      .on("title", {
        element(element) {
          tick();
          if (titleSeen || svg > 0 || state.hidden > 0) return;
          titleSeen = true;
          title = new Sink(rawCap(EXTRACTION_LIMITS.titleChars));
          state.onEnd(element, finishTitle);
        },
        ...collect((text) => title?.push(text)),
      })
      // Script text is hidden for every other sink; a JSON-LD block's goes to its own.
      .on("script[type]", {
        text(chunk) {
          tick();
          if (chunk.text !== "") jsonLd?.push(chunk.text);
        },
      })
      .on("meta", {
        element(element) {
          tick();
          const name = (element.getAttribute("name") ?? element.getAttribute("property") ?? "").trim().toLowerCase();
          const key = name === "description" ? "description" : name === "og:description" ? "ogDescription" : name === "og:title" ? "ogTitle" : null;
          if (key && meta[key] === "") meta[key] = attribute(element, "content").slice(0, rawCap(EXTRACTION_LIMITS.descriptionChars));
        },
      });
  }

  if (out.wants("links")) {
    rewriter = rewriter
      .on("base[href]", {
        element(element) {
          tick();
          if (baseSeen) return;
          baseSeen = true;
          const href = attribute(element, "href").trim();
          const resolved = out.base ? URL.parse(href, out.base) : URL.parse(href);
          const base = parseBaseUrl(resolved?.href);
          if (base) out.base = base;
        },
      })
      .on("a[href]", {
        // No end-tag handler: the next link or the end of input finishes this one.
        element(element) {
          tick();
          if (state.hidden > 0) return;
          finishLink();
          link = {
            href: attribute(element, "href").slice(0, EXTRACTION_LIMITS.hrefChars + 1),
            label: attribute(element, "aria-label") || attribute(element, "title"),
            sink: new Sink(rawCap(EXTRACTION_LIMITS.linkTextChars)),
          };
        },
        ...collect((text) => link?.sink.push(text)),
      })
      .on("a[href] img[alt]", {
        element(element) {
          tick();
          if (state.hidden === 0) link?.sink.push(` ${element.getAttribute("alt") ?? ""} `);
        },
      });
  }

  if (out.wants("headings")) {
    rewriter = rewriter.on(HEADINGS.join(", "), {
      element(element) {
        tick();
        if (state.hidden > 0) return;
        finishHeading();
        heading = { level: Number(element.tagName.slice(1)), sink: new Sink(rawCap(EXTRACTION_LIMITS.headingChars)) };
      },
      ...collect((text) => heading?.sink.push(text)),
    });
  }

  if (out.wants("tables")) {
    rewriter = rewriter
      .on("table", {
        element(element) {
          tick();
          if (state.hidden > 0) return;
          const table: TableBuilder = { rows: [], row: null, cell: null, inHead: false, overflow: false };
          tables.push(table);
          openTables.push(table);
          state.onEnd(element, () => {
            const at = openTables.lastIndexOf(table);
            if (at >= 0) openTables.splice(at, 1);
          });
        },
      })
      .on("thead, tbody, tfoot", {
        element(element) {
          tick();
          const table = currentTable();
          if (!table || state.hidden > 0) return;
          closeRow(table);
          table.inHead = element.tagName === "thead";
          if (table.inHead) {
            state.onEnd(element, () => {
              table.inHead = false;
              closeRow(table);
            });
          }
        },
      })
      .on("tr", {
        // Its end closes the row and its last cell: lol-html may still count later text as inside an unclosed
        // cell of an earlier row, which must not land in this one. (Cells get no end-tag handler: one call a row, not a cell.)
        element(element) {
          tick();
          const table = currentTable();
          if (!table || state.hidden > 0) return;
          const row = startRow(table);
          state.onEnd(element, () => {
            if (row && table.row === row) closeRow(table);
          });
        },
      })
      .on("td, th", {
        // Open until the next cell, or the end of its row or table.
        element(element) {
          tick();
          const table = currentTable();
          if (!table || state.hidden > 0) return;
          table.cell = null;
          const row = table.row ?? startRow(table);
          if (!row) return;
          if (row.cells.length >= EXTRACTION_LIMITS.cellsPerRow) {
            table.overflow = true;
            return;
          }
          const span = Math.min(EXTRACTION_LIMITS.cellsPerRow, Math.max(1, Number.parseInt(element.getAttribute("colspan") ?? "1", 10) || 1));
          const cell: Cell = { sink: new Sink(rawCap(EXTRACTION_LIMITS.cellChars)), span };
          row.cells.push(cell);
          table.cell = cell;
        },
        ...collect((text) => currentTable()?.cell?.sink.push(text)),
      });
  }

  const read = reader.read(html, (base) => handlers.reduce((built, [selector, handler]) => built.on(selector, handler), base));
  return read.then(({ stopped }) => {
    if (stopped !== null) out.truncated = true;
    finishJsonLd();
    finishTitle();
    finishLink();
    finishHeading();
    for (const table of tables) {
      if (table.overflow) out.truncated = true;
      const headerRows = table.rows.findIndex((row) => !row.header);
      const rows = table.rows.map((row) =>
        row.cells.flatMap((cell) => {
          if (cell.sink.overflow) out.truncated = true;
          const text = out.text(cell.sink.raw, EXTRACTION_LIMITS.cellChars);
          return [text, ...Array.from({ length: cell.span - 1 }, () => "")];
        }),
      );
      out.addTable(rows, headerRows === -1 ? table.rows.length : headerRows);
    }
    if (out.wants("metadata")) {
      out.setTitle(out.text(meta.ogTitle, EXTRACTION_LIMITS.titleChars, false));
      out.setDescription(out.text(meta.description || meta.ogDescription, EXTRACTION_LIMITS.descriptionChars, false));
    }
    return out.result();
  });
}

export const htmlRewriterExtractor: HtmlExtractor = { extract: extractHtml };
