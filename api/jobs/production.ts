// The production dependencies of the jobs: the real analysis pipeline (api/report/analyse.ts).
// Tests inject their own analysis instead.
import { analyseBusiness } from '../report/analyse.ts';
import type { JobDeps } from './registry.ts';

export const productionDeps: JobDeps & Required<Pick<JobDeps, 'analyse'>> = {
  analyse: (ctx, input) => analyseBusiness(ctx, input),
};
