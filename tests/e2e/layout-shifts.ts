// The layout shifts Chromium records on a page (PerformanceObserver 'layout-shift', none after
// input), for the CLS checks of the browser tests (dashboard-cls, subscribe-cls).
import type { Page } from '@playwright/test';

export interface Shift {
  value: number;
  sources: string[];
}

/** Starts recording before the page's first script runs; call before `goto`. */
export async function recordLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const shifts: Shift[] = [];
    (window as unknown as { shifts: Shift[] }).shifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: Array<{ node: Node | null }> }>) {
        if (!entry.hadRecentInput) shifts.push({ value: entry.value, sources: (entry.sources ?? []).map((s) => (s.node instanceof Element ? `${s.node.tagName.toLowerCase()}.${s.node.className}` : String(s.node?.nodeName))) });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** The shifts so far and their sum (the page's CLS). */
export async function layoutShifts(page: Page): Promise<{ shifts: Shift[]; cls: number }> {
  const shifts = await page.evaluate(() => (window as unknown as { shifts: Shift[] }).shifts);
  return { shifts, cls: shifts.reduce((sum, s) => sum + s.value, 0) };
}
