// `react-dom/client` in the browser build (decision 0330): Astro's React renderer hydrates an
// island with hydrateRoot, then renders it again. Preact's own hydrate keeps the server's
// attributes as they are (it diffs no props while hydrating), so an island whose first render
// differs from its pre-rendered HTML (the session known from the cache, a class that changed)
// would keep stale attributes where React would have re-rendered it. Here "hydrating" is a plain
// Preact render over the existing nodes: it reuses each element of the same tag, sets what
// differs and removes what is left over, in one task, so nothing is painted in between.
import { render, type ComponentChild } from 'preact';

export interface Root {
  render(children: ComponentChild): void;
  unmount(): void;
}

export function createRoot(container: Element): Root {
  return {
    render: (children) => render(children, container),
    unmount: () => render(null, container),
  };
}

export function hydrateRoot(container: Element, children: ComponentChild): Root {
  const root = createRoot(container);
  root.render(children);
  return root;
}
