/**
 * The DOCX written a piece at a time (src/web/downloads/docx-package.ts) is the document the `docx` package writes in
 * its own single pass: the same parts, the same body XML (list numbers, links, bookmarks, tables, escaped text), and
 * the work is cut by pauses.
 */
import {
  AlignmentType,
  Bookmark,
  Document,
  ExternalHyperlink,
  type FileChild,
  HeadingLevel,
  InternalHyperlink,
  LevelFormat,
  Packer,
  Paragraph,
  ShadingType,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
} from "docx";
import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { bodyPlaceholder, writeDocx, xmlOf } from "../../src/web/downloads/docx-package";

const NUMBERING = {
  config: [{ reference: "ordered", levels: [0, 1].map((level) => ({ level, format: LevelFormat.DECIMAL, text: `%${level + 1}.`, alignment: AlignmentType.START })) }],
};

/** Every kind of block Cairn's DOCX holds, `sections` times over (each section ~1.3 KB of XML). */
function blocks(sections: number): FileChild[] {
  const out: FileChild[] = [new Paragraph({ heading: HeadingLevel.TITLE, children: [new TextRun("Tides & <currents> \"quoted\" 'so' \u0001 東京の天気")] })];
  for (let s = 0; s < sections; s++) {
    out.push(
      new Paragraph({ heading: HeadingLevel.HEADING_2, children: [new TextRun(`Section ${s}`)] }),
      new Paragraph({ children: [new TextRun({ text: "bold", bold: true }), new TextRun({ text: " code ", font: "Courier New" }), new InternalHyperlink({ anchor: "source_E1", children: [new TextRun({ text: "[E1]", style: "Hyperlink" })] })] }),
      new Paragraph({ children: [new ExternalHyperlink({ link: `https://example.org/${s}?a=1&b=2`, children: [new TextRun({ text: "a link", style: "Hyperlink" })] })], numbering: { reference: "ordered", level: 0, instance: 1 + (s % 3) } }),
      new Paragraph({ children: [new TextRun("nested")], numbering: { reference: "ordered", level: 1, instance: 1 + (s % 3) } }),
      new Paragraph({ children: [new TextRun("bullet")], bullet: { level: 0 } }),
      new Paragraph({ children: [new TextRun({ text: "", break: 1 })], shading: { type: ShadingType.CLEAR, fill: "F4F5F7", color: "auto" }, spacing: { after: 0 } }),
      new Table({ width: { size: 100, type: WidthType.PERCENTAGE }, rows: [new TableRow({ tableHeader: true, children: [new TableCell({ children: [new Paragraph({ children: [new TextRun({ text: "h", bold: true })], alignment: AlignmentType.RIGHT })] })] })] }),
    );
  }
  out.push(new Paragraph({ children: [new Bookmark({ id: "source_E1", children: [new TextRun({ text: "[E1] ", bold: true })] }), new TextRun("A source")], numbering: { reference: "ordered", level: 0, instance: 1_000_000 } }));
  return out;
}

const partsOf = (bytes: ArrayBuffer | Uint8Array) => unzipSync(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes));
/** The same XML written either way: ids the package draws at random or counts across documents (links, bookmarks) and empty elements' two spellings made one. */
const comparable = (xml: string) =>
  xml
    .replace(/rId[\w-]{12,}/g, "rId#")
    .replace(/(w:id|w:name)="[^"]*"/g, '$1="#"')
    .replace(/<([\w:]+)((?:\s[^<>]*?)?)><\/\1>/g, "<$1$2/>")
    .replace(/<dcterms:(created|modified)[^<]*<\/dcterms:\1>/g, "");

describe("a DOCX written a piece at a time", () => {
  it("is the package's own document: the same parts and the same body XML", async () => {
    const theirs = partsOf(await Packer.toArrayBuffer(new Document({ creator: "Cairn", title: "T", numbering: NUMBERING, sections: [{ children: blocks(5) }] })));
    const file = new Document({ creator: "Cairn", title: "T", numbering: NUMBERING, sections: [{ children: [bodyPlaceholder()] }] });
    const ours = partsOf(await writeDocx(file, blocks(5), async () => undefined));
    expect(Object.keys(ours)).toEqual(Object.keys(theirs));
    for (const path of Object.keys(theirs)) expect(comparable(strFromU8(ours[path] as Uint8Array)), path).toBe(comparable(strFromU8(theirs[path] as Uint8Array)));
    const body = strFromU8(ours["word/document.xml"] as Uint8Array);
    expect(body).not.toMatch(/w:val="\{ordered-/);
    expect(body).toContain("Tides &amp; &lt;currents&gt; &quot;quoted&quot; &apos;so&apos;  東京の天気");
    expect(body).not.toContain("cairn:body");
  });

  it("keeps text that looks like a list-number placeholder as written (the package's own pass replaced it)", async () => {
    const file = new Document({ numbering: NUMBERING, sections: [{ children: [bodyPlaceholder()] }] });
    const code = new Paragraph({ children: [new TextRun("run {ordered-1} and {x}")], numbering: { reference: "ordered", level: 0, instance: 1 } });
    const body = strFromU8(partsOf(await writeDocx(file, [code], async () => undefined))["word/document.xml"] as Uint8Array);
    expect(body).toContain("run {ordered-1} and {x}");
    expect(body).toMatch(/<w:numId w:val="\d+"\/>/);
  });

  it("pauses while it writes: a long body is written and deflated in many parts", async () => {
    let pauses = 0;
    const file = new Document({ numbering: NUMBERING, sections: [{ children: [bodyPlaceholder()] }] });
    const bytes = await writeDocx(file, blocks(600), async () => {
      pauses++;
    });
    const xml = strFromU8(partsOf(bytes)["word/document.xml"] as Uint8Array);
    expect(xml.length).toBeGreaterThan(600 * 1_000);
    // A pause every 50 blocks prepared, and one every 64 KiB of body deflated.
    expect(pauses).toBeGreaterThanOrEqual(Math.floor((600 * 7) / 50) + Math.floor(xml.length / 65_536));
  });

  it("writes XML as the package does for each shape of its objects", () => {
    expect(xmlOf({ "w:b": { _attr: { "w:val": false } } } as never)).toBe('<w:b w:val="false"/>');
    expect(xmlOf({ "w:t": [{ _attr: { "xml:space": "preserve" } }, "a < b & c"] } as never)).toBe('<w:t xml:space="preserve">a &lt; b &amp; c</w:t>');
    expect(xmlOf({ "w:r": [{ "w:t": ["x"] }, { "w:br": {} }] } as never)).toBe("<w:r><w:t>x</w:t><w:br/></w:r>");
    expect(xmlOf({ "w:sz": { _attr: { "w:val": 24 } } } as never)).toBe('<w:sz w:val="24"/>');
  });
});
