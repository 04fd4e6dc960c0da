/**
 * A command's target address, given as its first argument. Webhooks and Slack channels took it as --endpoint
 * before (REST and the dashboard call it url, and the CLI's own --url names the Cairn server): that spelling is
 * still read, with a pointer to the one name, so scripts written against it keep working.
 */
import { UsageError } from "./wrangler.mjs";

/**
 * @param {Record<string, any>} o the parsed command line
 * @param {string} what what is missing, and how to give it (the usage error's text)
 * @param {string} [positional] the positional's name in the command's table
 * @returns {string}
 */
export function addressArgument(o, what, positional = "webhookUrl") {
  const given = o[positional];
  if (given !== undefined && o.endpoint !== undefined) throw new UsageError("Give the URL once: as the first argument (--endpoint is its older spelling).");
  if (o.endpoint !== undefined) {
    console.error("cairn: --endpoint is read as the URL; give it as the first argument instead (REST and the dashboard call it url).");
    return o.endpoint;
  }
  if (given === undefined || given === "") throw new UsageError(`Needs ${what}`);
  return given;
}
