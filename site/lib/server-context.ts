// For server-rendered pages and the dev server's /api route: the process's one AppContext.
import { sharedContext } from '../../api/context.ts';
import { createContext } from '../../api/create-context.ts';
import { loadEnv } from '../../api/env.ts';

export const getContext = () => sharedContext(() => createContext(loadEnv(), { migrate: true }));

/** The peer's address, or undefined where the adapter cannot tell (Astro throws then). */
export function clientAddress(context: { clientAddress: string }): string | undefined {
  try {
    return context.clientAddress;
  } catch {
    return undefined;
  }
}
