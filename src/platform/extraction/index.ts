import type { ExtractionServices } from "../../domain/research/extraction/model";
import { htmlRewriterExtractor } from "./html-extractor";
import { jsonSchemaRecordValidator } from "./record-validator";

/** The platform side of extract_data: HTMLRewriter for HTML, @cfworker/json-schema for records. Stateless, so one for all requests. */
export const platformExtraction: ExtractionServices = { html: htmlRewriterExtractor, records: jsonSchemaRecordValidator };
