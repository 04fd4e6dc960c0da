export function buildPlanViewPage(source: string): string;
