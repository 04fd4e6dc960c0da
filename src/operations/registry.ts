import { cancelPlanOperation } from "./cancel-plan";
import { chatgptFetch } from "./chatgpt-fetch";
import { chatgptSearch } from "./chatgpt-search";
import { createResearchPlan } from "./create-research-plan";
import { deleteArtifact } from "./delete-artifact";
import { extractData } from "./extract-data";
import { getArtifact } from "./get-artifact";
import { getNextStep } from "./get-next-step";
import { getEvidenceLedger } from "./get-evidence-ledger";
import { getPlanHistory } from "./get-plan-history";
import { getPlanTemplates } from "./get-plan-templates";
import { getPlanStatus } from "./get-plan-status";
import { getResearchContext } from "./get-research-context";
import { getResearchSession } from "./get-research-session";
import { getSkillExecution } from "./get-skill-execution";
import { getResearchOutput } from "./get-research-output";
import { getStepContext } from "./get-step-context";
import { listActivePlans } from "./list-active-plans";
import { listArtifacts } from "./list-artifacts";
import { listResearchOutputs } from "./list-research-outputs";
import { listSkillExecutions } from "./list-skill-executions";
import { logSkillExecution } from "./log-skill-execution";
import { modifyPlan } from "./modify-plan";
import type { AnyOperation } from "./operation";
import { recordClaims } from "./record-claims";
import { recordEvidence } from "./record-evidence";
import { recordVerdicts } from "./record-verdicts";
import { requestUserReview } from "./request-user-review";
import { searchSources } from "./search-sources";
import { sequentialSearch } from "./sequential-search";
import { storeResearch } from "./store-research";
import { storeResearchOutput } from "./store-research-output";
import { submitResearchFeedback } from "./submit-research-feedback";
import { submitReview } from "./submit-review";
import { submitStepResult } from "./submit-step-result";

/** Every operation Cairn serves, in the order `tools/list` shows them: the lifecycle of seed 000. */
export const OPERATIONS: readonly AnyOperation[] = [
  logSkillExecution,
  getSkillExecution,
  listSkillExecutions,
  getPlanTemplates,
  createResearchPlan,
  getNextStep,
  getStepContext,
  submitStepResult,
  modifyPlan,
  requestUserReview,
  submitReview,
  getPlanStatus,
  listActivePlans,
  getResearchContext,
  cancelPlanOperation,
  getPlanHistory,
  sequentialSearch,
  getResearchSession,
  storeResearch,
  searchSources,
  getArtifact,
  listArtifacts,
  deleteArtifact,
  extractData,
  storeResearchOutput,
  getResearchOutput,
  listResearchOutputs,
  recordEvidence,
  recordClaims,
  recordVerdicts,
  getEvidenceLedger,
  submitResearchFeedback,
  chatgptSearch,
  chatgptFetch,
];

const BY_NAME = new Map(OPERATIONS.map((operation) => [operation.name, operation]));

export const findOperation = (name: string): AnyOperation | undefined => BY_NAME.get(name);
