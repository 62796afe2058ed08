// For server-rendered pages and the dev server's /api route: the process's one AppContext.
import { createContext, sharedContext } from '../../api/context.ts';
import { loadEnv } from '../../api/env.ts';

export const getContext = () => sharedContext(() => createContext(loadEnv(), { migrate: true }));
