// The order vitest starts test files in. Without the durations of an earlier run (its cache, which
// a clean clone does not have) vitest starts the largest files first, and files that are short but
// spend most of their time waiting on what they start (processes, sqld, a dev server, a lease to
// run out) came last: the end of the integration pass was one worker waiting on them while the
// other had nothing left to do. Those go first here, longest first; the rest keep vitest's order.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const WAITING = [
  'scale-out',
  'dev-server',
  'admin-cli',
  'report-sent-record',
  'erasure-on-server',
  'worker-crash',
  'analysis-providers',
  'two-machines-files',
  'schedule',
  'account-data',
  'client-report-crash',
  'rate-limit',
  'database-server',
  'one-business-one-place',
  'billing-processes',
  'data-erasure',
  'mail-outage',
  'provider-budget-cluster',
  'api-client-package',
  'database-locked',
  'api-rate-limit-processes',
];

const rank = (spec: TestSpecification) => {
  const index = WAITING.findIndex((name) => spec.moduleId.endsWith(`/${name}.test.ts`));
  return index < 0 ? WAITING.length : index;
};

export class WaitingFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return sorted.map((spec, index) => ({ spec, index })).sort((a, b) => rank(a.spec) - rank(b.spec) || a.index - b.index).map(({ spec }) => spec);
  }
}
