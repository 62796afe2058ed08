// The production dependencies of the jobs: the analysis pipeline (api/report/analyse.ts).
import { analyseBusiness } from '../report/analyse.ts';
import type { JobDeps } from './registry.ts';

export const productionDeps: JobDeps = { analyse: (ctx, input) => analyseBusiness(ctx, input) };
