/**
 * The Worker `npm run bench:sources` reads the article set's pages with: the body it is sent, with
 * the Content-Type header it names, goes through the source check's own steps on workerd (the kind
 * from the content type, then readPage: the charset decoded, the HTML read with HTMLRewriter) and the
 * text a snapshot would keep comes back as JSON.
 */
import { readableKind } from "../src/domain/sources/verification";
import { readPage } from "../src/platform/sources/visible-text";

export default {
  async fetch(request: Request): Promise<Response> {
    const contentType = request.headers.get("x-page-content-type");
    const body = new Uint8Array(await request.arrayBuffer());
    const kind = readableKind(contentType, body);
    if (typeof kind !== "string") return Response.json(kind);
    return Response.json(await readPage(kind, body, contentType));
  },
};
