import { createServer } from "node:http";

export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * A webhook receiver on loopback (plain http is allowed to loopback in
 * development): it records what arrives and answers 204. The test checks the
 * signatures itself, with the Standard Webhooks reference library.
 */
export async function startReceiver() {
  const received: ReceivedWebhook[] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      body += chunk;
    });
    request.on("end", () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) if (typeof value === "string") headers[name] = value;
      received.push({ path: request.url ?? "", headers, body });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("the receiver has no port");
  return {
    url: `http://127.0.0.1:${address.port}`,
    received,
    /** Waits until `done(received)` holds (60 s at most: a deadline for what never comes, not a quiet machine's pace) and returns what arrived. */
    async waitFor(done: (all: ReceivedWebhook[]) => boolean, timeoutMs = 60_000): Promise<ReceivedWebhook[]> {
      const until = Date.now() + timeoutMs;
      while (!done(received)) {
        if (Date.now() > until) throw new Error(`webhooks did not arrive in time; got ${received.map((r) => r.body.slice(0, 60)).join(" | ") || "nothing"}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      return [...received];
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
