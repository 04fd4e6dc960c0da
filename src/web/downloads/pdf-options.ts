/**
 * How the PDF download is printed (Chromium's print options, as puppeteer and playwright name them): the paper, the
 * background, the headings as the PDF's outline, a tagged PDF, the title at the top of each page and "Page N of M" at
 * its foot. Apart from pdf.ts so `npm run bench:downloads` prints with exactly these.
 */
import type { PaperSize } from "../../domain/research/paper-size";
import { escapeHtml } from "./html";

/** The page's margins: room for the header and the footer's page numbers. */
const MARGIN = { top: "18mm", bottom: "18mm", left: "16mm", right: "16mm" };

const header = (title: string) =>
  `<div style="font: 8px sans-serif; color: #555; width: 100%; padding: 0 16mm; overflow: hidden; white-space: nowrap; text-overflow: ellipsis;">${escapeHtml(title)}</div>`;
const FOOTER = `<div style="font: 8px sans-serif; color: #555; width: 100%; padding: 0 16mm; text-align: right;">Page <span class="pageNumber"></span> of <span class="totalPages"></span></div>`;

export function printOptions(paper: PaperSize, title: string) {
  return {
    format: paper,
    printBackground: true,
    outline: true,
    tagged: true,
    displayHeaderFooter: true,
    headerTemplate: header(title),
    footerTemplate: FOOTER,
    margin: MARGIN,
  };
}
