import { countTokens } from "gpt-tokenizer/encoding/cl100k_base";
import { describe, expect, it } from "vitest";
import { prose, rng, TOPICS } from "../../bench/corpus";
import { type CallTool, worstCaseDefaultResponses } from "../../bench/response-cases";
import { OPERATIONS } from "../../src/operations/registry";
import { fetchWorker, mcpRequest, readJsonRpc, seedTenant } from "../support/worker";

/** issue 4: every default response stays within this many cl100k tokens, whatever is stored. */
const MAX_TOKENS = 8_000;

/** One tools/call through the real Worker; the text is exactly what the model reads (every text item). */
const callThroughMcp =
  (key: string): CallTool =>
  async (name, args) => {
    const message = await readJsonRpc(await fetchWorker(mcpRequest(key, "tools/call", { name, arguments: args })));
    if (message.error) throw new Error(`${name}: JSON-RPC error ${message.error.code} ${message.error.message}`);
    const result = message.result ?? {};
    const text = (result.content ?? []).map((item) => item.text).join("\n");
    return { isError: result.isError === true, text, body: JSON.parse(text || "null") as Record<string, unknown> };
  };

describe("default response size", () => {
  it(`keeps every operation's default response within ${MAX_TOKENS} cl100k tokens when every record is at its limit`, async () => {
    const { apiKey } = await seedTenant();
    const random = rng(42);
    const topic = TOPICS[3] ?? [];
    const responses = await worstCaseDefaultResponses(callThroughMcp(apiKey), (chars) => prose(random, chars, topic));

    const sizes = [...responses.values()].map((response) => ({ name: response.name, chars: response.text.length, tokens: countTokens(response.text) }));
    console.log(sizes.map((size) => `${size.name}: ${size.tokens} tokens (${size.chars} chars)`).join("\n"));
    const over = sizes.filter((size) => size.tokens > MAX_TOKENS).map((size) => size.name);
    expect.soft(over, "operations whose default response is over the bound").toEqual([]);

    // Every registered operation is covered, so a new one must be added to bench/response-cases.ts.
    const registered = OPERATIONS.map((operation) => operation.name).sort();
    expect([...responses.keys()].sort(), "every registered tool has a worst case in bench/response-cases.ts").toEqual(registered);
  }, 600_000);
});
