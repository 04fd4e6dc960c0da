import { getSkillExecution } from "./get-skill-execution";
import { listSkillExecutions } from "./list-skill-executions";
import { logSkillExecution } from "./log-skill-execution";
import type { AnyOperation } from "./operation";

/** Every operation Cairn serves, in the order `tools/list` shows them. */
export const OPERATIONS: readonly AnyOperation[] = [logSkillExecution, getSkillExecution, listSkillExecutions];

const BY_NAME = new Map(OPERATIONS.map((operation) => [operation.name, operation]));

export const findOperation = (name: string): AnyOperation | undefined => BY_NAME.get(name);
