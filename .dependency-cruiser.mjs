// The import rules of api/, common/, db/ and widget-sdk/ (`npm test` runs them; layers in api/README.md,
// decision 0140). Type-only imports count: a cycle through `import type` ties modules as much as any.
/** The composition root: the files that assemble everything below them (api/server.ts the HTTP server); scripts/ only start them. */
export const ROOT = '^api/(app|create-context|server)\\.ts$|^api/jobs/(registry|production|run-worker|schedule)\\.ts$|^api/routes/v1/document\\.ts$';
/** The queue and the infrastructure every feature may use: below services, report and email. */
export const INFRA = '^api/(context|auth|env|log|errors)\\.ts$|^api/jobs/(queue|worker|types|errors|faults|admin)\\.ts$|^api/lib/';
/** The bottom: knows nothing of the rest of api/. */
export const BASE = '^api/(env|log|errors)\\.ts$|^(db|common)/';

/** The report's stages and jobs (analyse, persist, deliver, the *-job.ts files): the files directly in api/report/. */
export const REPORT_STAGES = '^api/report/[^/]+\\.ts$';
/** The report's way, top to bottom: each folder imports only the folders after it (and api/'s infrastructure). */
export const REPORT_WAY = ['files', 'render', 'words', 'analysis', 'model'];
const above = (folder) => REPORT_WAY.slice(0, REPORT_WAY.indexOf(folder));

export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle (type-only imports included) ties every module on it to every other: move the shared type or function into a leaf module.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'root-on-top',
      severity: 'error',
      comment: 'Only the composition root assembles the registry, the worker, the scheduler, the context and the app: below it, take what you need as a parameter.',
      from: { path: '^(api|common|db|widget-sdk)/', pathNot: ROOT },
      to: { path: ROOT },
    },
    {
      name: 'routes-on-top',
      severity: 'error',
      comment: 'Routes are thin callers of services: nothing but the composition root and other routes imports them.',
      from: { path: '^(api|common|db|widget-sdk)/', pathNot: `${ROOT}|^api/routes/` },
      to: { path: '^api/routes/' },
    },
    {
      name: 'infrastructure-below-features',
      severity: 'error',
      comment: 'The queue, the worker, lib/, the context and auth serve services, report and email; they import none of them (pass a callback instead).',
      from: { path: INFRA },
      to: { path: '^api/(services|report|email)/' },
    },
    {
      name: 'base-knows-no-api',
      severity: 'error',
      comment: 'db/, common/, env, log and errors are the bottom layer: they import nothing else of api/.',
      from: { path: BASE },
      to: { path: '^api/', pathNot: '^api/(env|log|errors)\\.ts$' },
    },
    {
      name: 'email-builds-messages',
      severity: 'error',
      comment: 'api/email/ builds and sends messages; the services, the report stages and the jobs decide who gets what and call it. It reads the report only through the folders below render: its words, the figures of the analysis and the model.',
      from: { path: '^api/email/' },
      to: { path: '^api/(services|routes)/|^api/report/', pathNot: '^api/report/(words|analysis|model)/' },
    },
    {
      name: 'services-below-report-stages',
      severity: 'error',
      comment: 'The report stages and jobs (api/report/*.ts) ask services who pays and in which branding: services take from api/report/ only its folders (files, render, words, analysis, model), never a stage.',
      from: { path: '^api/services/' },
      to: { path: REPORT_STAGES },
    },
    ...REPORT_WAY.map((folder) => ({
      name: `report-${folder}-below-stages`,
      severity: 'error',
      comment: `The report's way runs one way: stages → files → render → words → analysis → model. api/report/${folder}/ imports no stage, no e-mail${folder === 'files' ? '' : ' and no service'}, and none of the folders before it${above(folder).length ? ` (${above(folder).join(', ')})` : ''}.`,
      from: { path: `^api/report/${folder}/` },
      to: { path: [REPORT_STAGES, '^api/email/', ...(folder === 'files' ? [] : ['^api/services/']), ...above(folder).map((f) => `^api/report/${f}/`)].join('|') },
    })),
    {
      name: 'widget-sdk-dependency-free',
      severity: 'error',
      comment: 'The embeddable SDK imports only its own files, Preact/React and dependency-free common/ modules: anything else lands in every host page.',
      from: { path: '^widget-sdk/src/' },
      to: { path: '^(node_modules/(?!(react|react-dom|preact)/)|api/|db/|site/)', reachable: true },
    },
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|widget-sdk/dist)/' },
    moduleSystems: ['es6'],
  },
};
