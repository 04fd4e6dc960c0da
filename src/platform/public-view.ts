/**
 * The public view of a deliverable (src/domain/research/public-view.ts) loaded for a face: the deliverable the face
 * already read, and its own plan's ledger sources — nothing else is read, so nothing else can reach a public page
 * or a download.
 */
import type { Services } from "../domain/ports";
import type { ResearchOutput } from "../domain/research/outputs";
import { type PublicDeliverable, publicDeliverable } from "../domain/research/public-view";

export async function publicViewOf(services: Pick<Services, "ledger">, output: ResearchOutput): Promise<PublicDeliverable> {
  const ledger = output.planId ? await services.ledger.read(output.orgId, output.planId, false) : null;
  return publicDeliverable(output, ledger?.evidence ?? []);
}
