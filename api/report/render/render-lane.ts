// The process's render lane: the render threads the report job renders in (run-worker.ts sets its
// pool here when the worker runs in this process), which the branding preview renders in too, in
// a lane of its own inside the pool (renderer.ts serves lanes in turn). Without a worker in the
// process, one thread of its own, started on first need. Decision 0250.
import { threadRenderer, type Renderer } from './renderer.ts';

let shared: Renderer | undefined;
let own: Renderer | undefined;

/** Makes `renderer` the process's render lane until the returned function is called. */
export function setRenderLane(renderer: Renderer): () => void {
  shared = renderer;
  return () => {
    if (shared === renderer) shared = undefined;
  };
}

export const renderLane = (): Renderer => shared ?? (own ??= threadRenderer(1));
