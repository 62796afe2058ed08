// The session store as an island should read it. Pages are pre-rendered with the check still
// loading; when another island has already answered it (from the 5-minute cache, synchronously),
// reading the store during hydration would render something else than that HTML and React would
// throw a hydration error (#418) and re-render the island. So: 'loading' while hydrating, the
// store's value right after.
import { useStore } from '@nanostores/react';
import { useSyncExternalStore } from 'react';
import { $session, type SessionState } from './session.ts';

const noSubscription = () => () => {};
const LOADING: SessionState = { status: 'loading' };

export function useSession(): SessionState {
  const session = useStore($session);
  const hydrated = useSyncExternalStore(noSubscription, () => true, () => false);
  return hydrated ? session : LOADING;
}
