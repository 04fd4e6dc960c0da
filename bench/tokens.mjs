/**
 * What the tool list costs a model's context: cl100k tokens of the JSON of the
 * `tools` array exactly as `tools/list` returns it through MCP, in total and
 * per tool, with each tool split into its parts so the expensive part shows.
 */
import { encode } from "gpt-tokenizer/encoding/cl100k_base";
import { mcpCall } from "./cases.mjs";

export const TOKENS_PER_TOOL_GOAL = 150;
/**
 * What the catalog can keep with every title, hint, closed schema and field
 * name it must carry (bench/README.md: with no prose at all it costs ≈128 per
 * tool, so 150 leaves ≈22 tokens of guidance per tool). Guarded in
 * src/mcp/tools.test.ts as well, so growth is a deliberate change (175 → 180: the reads' filters and cursors and
 * the plan template, which save far more in responses; `npm run bench:context`).
 */
export const TOKENS_PER_TOOL_PROPOSED = 180;
/** The core profile (/mcp/core): the whole list, and how many tools. */
export const CORE_PROFILE_GOAL = { tokens: 1_200, tools: 10 };

const tokens = (value) => encode(typeof value === "string" ? value : JSON.stringify(value)).length;

export async function measureToolList(publicUrl, credential, path = "/mcp") {
  const { tools } = await mcpCall(publicUrl, credential, "tools/list", {}, path);
  if (!Array.isArray(tools) || tools.length === 0) throw new Error("tools/list returned no tools");
  // The goals are judged on what the model is given: the tools it may call (MCP Apps visibility: a tool listed
  // for the app only stays out of the model's list) without `_meta`, which hosts read and do not pass on.
  // The listing as served (host metadata and app-only tools included) is reported beside it.
  const forModel = tools.filter(modelVisible).map(({ _meta, ...tool }) => tool);
  const total = tokens(forModel);
  const served = tokens(tools);
  const perTool = tools.map((tool) => {
    const { name, title, description, inputSchema, outputSchema, annotations, ...rest } = tool;
    return {
      name,
      total: tokens(tool),
      description: tokens(description ?? ""),
      inputSchema: tokens(inputSchema ?? {}),
      outputSchema: outputSchema ? tokens(outputSchema) : 0,
      annotations: annotations ? tokens(annotations) : 0,
      // name, title and anything else (execution, _meta, …), with the JSON punctuation around them.
      other: tokens({ name, title, ...rest }),
    };
  });
  // Judged on the whole array (brackets and commas included); the per-tool sum is shown beside it.
  const average = total / forModel.length;
  const sumOfTools = perTool.reduce((sum, tool) => sum + tool.total, 0);
  // The floor: the same list with every description (tool and input field) emptied.
  const withoutProse = forModel.map((tool) => ({ ...tool, description: "", inputSchema: withoutDescriptions(tool.inputSchema ?? {}) }));
  const proseFree = tokens(withoutProse) / forModel.length;
  return { count: forModel.length, served, servedCount: tools.length, total, average, sumOfTools, pass: average <= TOKENS_PER_TOOL_GOAL, proposedPass: average <= TOKENS_PER_TOOL_PROPOSED, proseFree, perTool, bytes: JSON.stringify(tools).length };
}

/** MCP Apps `_meta.ui.visibility`: absent means model and app. */
const modelVisible = (tool) => {
  const visibility = tool._meta?.ui?.visibility;
  return !Array.isArray(visibility) || visibility.includes("model");
};

const withoutDescriptions = (schema) =>
  Array.isArray(schema)
    ? schema.map(withoutDescriptions)
    : schema && typeof schema === "object"
      ? Object.fromEntries(Object.entries(schema).filter(([key, value]) => !(key === "description" && typeof value === "string")).map(([key, value]) => [key, withoutDescriptions(value)]))
      : schema;
