// The production dependencies of the jobs. The analysis pipeline (api/report/analyse.ts) plugs in
// here; until it is present, report.generate jobs stay queued.
import type { JobDeps } from './registry.ts';

export const productionDeps: JobDeps = {};
