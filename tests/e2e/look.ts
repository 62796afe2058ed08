// Screenshots for a person to look at: written only when asked for (E2E_SCREENSHOTS=1, see
// docs/testing.md), since no test compares them and a full-page PNG costs the run a busy core.
import type { Locator, Page } from '@playwright/test';

type Options = NonNullable<Parameters<Page['screenshot']>[0]>;

export async function look(target: Page | Locator, options: Options & { path: string }): Promise<void> {
  if (!process.env.E2E_SCREENSHOTS) return;
  await (target as Page).screenshot(options);
}
