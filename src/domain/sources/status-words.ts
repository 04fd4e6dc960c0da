/**
 * A source's verification status in a reader's words, for the files and pages a person reads without Cairn's
 * vocabulary (a download of a deliverable): `not_found` is "not verified (quote not found on the page)", an
 * unreachable page says why. Pure; one map, so every such surface says the same.
 */
import { type SourceVerification, type UnreachableKind, unreachableKind, type VerificationStatus } from "./verification";

const STATUS_WORDS: Record<Exclude<VerificationStatus, "unreachable">, string> = {
  verified: "verified (quote found on the page)",
  partial: "partly verified (only part of the quote found on the page)",
  not_found: "not verified (quote not found on the page)",
  pending: "waiting to be checked",
  unchecked: "unchecked (no quote recorded, or the page is not readable text)",
};

const UNREACHABLE_WORDS: Record<UnreachableKind, string> = {
  dead: "unreachable (the page does not exist: a dead link)",
  walled: "unreachable (the site refused Cairn: a bot wall, paywall or rate limit)",
  timeout: "unreachable (the site did not answer in time)",
  connection: "unreachable (could not connect to the site)",
  refused: "unreachable (the address was refused)",
  http_error: "unreachable (the site answered with an error)",
};

/** What Cairn found on the page, in words; null is a citation never recorded as a source, so never checked. */
export function verificationInWords(verification: Pick<SourceVerification, "status" | "reason"> | null): string {
  if (!verification) return "unchecked (not a recorded source)";
  if (verification.status === "unreachable") return UNREACHABLE_WORDS[unreachableKind(verification.reason)];
  return STATUS_WORDS[verification.status];
}
