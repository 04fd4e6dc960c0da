// Types for hostile-pages.mjs, so TypeScript tests can import it (the project does not type-check JS).

export declare const HOSTILE_QUOTE: string;
export declare const BOMB_EXPANDED_BYTES: number;

export interface HostileCase {
  name: string;
  body: Uint8Array;
  contentType: string;
  /** The ordinary page every reader must read whole. */
  control?: boolean;
}

export interface ServedCase extends HostileCase {
  path: string;
}

export interface PdfStream {
  /** Dictionary entries besides /Length, e.g. "/Filter [/FlateDecode /FlateDecode]". */
  entries: string;
  data: Uint8Array;
}

export declare function deflate(data: Uint8Array | null, zeros?: number): Promise<Uint8Array>;
export declare function lzwEncode(data: Uint8Array): Uint8Array;
export declare function ascii85Encode(data: Uint8Array): Uint8Array;
export declare function asciiHexEncode(data: Uint8Array): Uint8Array;
export declare function runLengthRepeat(byte: number, count: number): Uint8Array;
export declare function pdfWithStreams(streams: PdfStream[], objects?: string[]): Uint8Array;
export declare function pdfBombs(): Promise<HostileCase[]>;
export declare function hostileHtmlPages(): HostileCase[];
export declare function hostileCases(): Promise<ServedCase[]>;
export declare function serveHostileCases(cases: ServedCase[]): Promise<{ origin: string; close: () => Promise<void> }>;
