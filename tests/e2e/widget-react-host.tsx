// An agency's React site using the ES module build (what `npm install …/localrank-widget-1.0.0.tgz`
// gives): the widget spec bundles this with React and serves it on the host page, whose CSS hides
// every <div> (tests/e2e/widget.spec.ts).
import { createRoot } from 'react-dom/client';
import { ReportForm } from '../../widget-sdk/src/index.ts';

const app = document.getElementById('app')!;
createRoot(app).render(<ReportForm publishableKey={app.dataset.key!} origin={app.dataset.origin!} />);
