/**
 * A DOCX file written out a piece at a time. The `docx` package writes a document's XML and deflates every part in
 * one synchronous pass: for a 196 KB deliverable about half a second in which the instance answers no other request,
 * whichever org asked. Here the package writes only the document's small parts (styles, numbering, relationships,
 * properties) around a marker where the body goes; the body's XML is written a group of blocks at a time and deflated
 * 64 KiB at a time, with a pause between, into the same zip layout the package makes.
 */
import { type File, FileChild, type IXmlableObject, Packer } from "docx";
import { Zip, ZipDeflate, unzipSync } from "fflate";

/** What stands in the package's document part for the body until the body is written in. */
const BODY_MARKER = "cairn:body";
const DOCUMENT_PART = "word/document.xml";
/** Body XML deflated between two pauses (UTF-8 bytes), and blocks written to XML between two pauses. */
const DEFLATE_PIECE = 64 * 1024;
const BLOCKS_PER_PAUSE = 50;

/**
 * A body block the package takes as already made: its XML object was prepared by `writeDocx` (ids, links and list
 * numbers registered with the document then, as in the package's own pass).
 */
export class PreparedBlock extends FileChild {
  constructor(private readonly prepared: IXmlableObject) {
    super("w:p");
  }
  override prepForXml(): IXmlableObject {
    return this.prepared;
  }
}

const ESCAPES: Record<string, string> = { "&": "&amp;", '"': "&quot;", "'": "&apos;", "<": "&lt;", ">": "&gt;" };
// What XML 1.0 cannot hold is dropped, as the package does.
// biome-ignore lint/suspicious/noControlCharactersInRegex: dropping the control characters XML cannot hold is the point.
const TO_ESCAPE = /[&"'<>\x00-\x08\x0B\x0C\x0E-\x1F]/g;
const escapeValue = (value: unknown) => (typeof value === "string" ? value.replace(TO_ESCAPE, (char) => ESCAPES[char] ?? "") : String(value));
const attributesOf = (attr: Record<string, unknown>) =>
  Object.entries(attr)
    .map(([key, value]) => ` ${key}="${escapeValue(value)}"`)
    .join("");

/**
 * The XML of one prepared object, as the package writes it (the `xml` package's shape: `{name: [{_attr}, child…]}`,
 * `{name: {_attr}}`, `{name: "text"}`), without indentation.
 */
export function xmlOf(data: IXmlableObject): string {
  const name = Object.keys(data)[0];
  if (name === undefined) return "";
  const values = (data as Record<string, unknown>)[name];
  let attributes = "";
  let content = "";
  let empty = true;
  if (values !== null && typeof values === "object") {
    const { _attr: attr } = values as { _attr?: Record<string, unknown> };
    if (attr) attributes += attributesOf(attr);
    if (Array.isArray(values)) {
      for (const value of values) {
        if (value !== null && typeof value === "object") {
          if (Object.keys(value)[0] === "_attr") attributes += attributesOf((value as { _attr: Record<string, unknown> })._attr);
          else content += xmlOf(value as IXmlableObject);
          empty = false;
        } else {
          content += escapeValue(value);
          empty = false;
        }
      }
    }
  } else if (values !== undefined) {
    content = escapeValue(values);
    empty = false;
  }
  return empty ? `<${name}${attributes}/>` : `<${name}${attributes}>${content}</${name}>`;
}

/**
 * The `{reference-instance}` placeholders the package leaves for list numbers, filled as its own pass fills them but
 * only where a list number goes: its pass also replaced text that looked like one ("{ordered-1}" in a code span).
 */
function numberFiller(file: File): (xml: string) => string {
  const ids = new Map(
    file.Numbering.ConcreteNumbering.map(({ reference, instance, restartedListId, numId }) => [
      restartedListId === undefined ? `${reference}-${instance}` : `${reference}-restart ${restartedListId}`,
      String(numId),
    ]),
  );
  return (xml) => (ids.size === 0 ? xml : xml.replace(/<w:numId w:val="\{([^{}"]+)\}"/g, (placeholder, key: string) => (ids.has(key) ? `<w:numId w:val="${ids.get(key)}"` : placeholder)));
}

/**
 * The DOCX of `file`, whose one section holds only the block `bodyPlaceholder()` gave, with `blocks` as its body.
 * Blocks are prepared (registering their links, bookmarks and lists with the file) and written to XML a group at a
 * time; the body is deflated a piece at a time; `pause` is awaited between.
 */
export async function writeDocx(
  file: File,
  blocks: readonly FileChild[],
  pause: () => Promise<void>,
): Promise<Uint8Array> {
  // The context the package writes the body in: the document, its part's relationships, the body's ancestors.
  const context = { file, viewWrapper: file.Document, stack: [] };
  const pieces: string[] = [];
  for (const [index, block] of blocks.entries()) {
    if (index > 0 && index % BLOCKS_PER_PAUSE === 0) await pause();
    const prepared = block.prepForXml(context as never);
    if (prepared) pieces.push(xmlOf(prepared));
  }
  await pause();
  // The package's own parts, the body a marker (small: a few milliseconds to write and zip).
  const parts = unzipSync(new Uint8Array(await Packer.toArrayBuffer(file)));
  const documentPart = parts[DOCUMENT_PART];
  if (!documentPart) throw new Error("the docx package wrote no document part");
  const skeleton = new TextDecoder().decode(documentPart);
  const marker = `<${BODY_MARKER}/>`;
  const at = skeleton.indexOf(marker);
  if (at < 0 || skeleton.indexOf(marker, at + 1) >= 0) throw new Error("the document part does not hold the body's marker once");
  const fillNumbers = numberFiller(file);
  await pause();

  const out: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else out.push(chunk);
  });
  const encoder = new TextEncoder();
  for (const [path, data] of Object.entries(parts)) {
    const entry = new ZipDeflate(path, { level: 6 });
    zip.add(entry);
    if (path !== DOCUMENT_PART) {
      entry.push(data, true);
      continue;
    }
    entry.push(encoder.encode(skeleton.slice(0, at)));
    let piece = "";
    for (const xml of pieces) {
      piece += xml;
      if (piece.length >= DEFLATE_PIECE) {
        entry.push(encoder.encode(fillNumbers(piece)));
        piece = "";
        await pause();
      }
    }
    entry.push(encoder.encode(fillNumbers(piece) + skeleton.slice(at + marker.length)), true);
  }
  zip.end();
  if (failure) throw failure;
  const length = out.reduce((sum, chunk) => sum + chunk.length, 0);
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of out) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

/** The block `file`'s section holds while its parts are written: where `writeDocx` puts the body. */
export const bodyPlaceholder = (): FileChild => new PreparedBlock({ [BODY_MARKER]: {} } as IXmlableObject);
