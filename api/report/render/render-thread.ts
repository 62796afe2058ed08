// Runs in a worker thread: renders a report's PNG and PDF off the main event loop.
import { parentPort } from 'node:worker_threads';
import type { Branding } from '../model/branding.ts';
import type { ReportData } from '../model/types.ts';
import { pdfPagePng } from './pdf-page.ts';
import { renderPdf, type ReportLinks } from './pdf.ts';
import type { RenderOptions } from './renderer.ts';
import { renderScoreCard } from './score-card.ts';

parentPort!.on('message', async (message: { id: number; data: ReportData; links: ReportLinks; branding: Branding | null; options?: RenderOptions }) => {
  try {
    // The logo crossed the thread boundary as a plain Uint8Array.
    const branding = message.branding && { ...message.branding, logoPng: message.branding.logoPng ? Buffer.from(message.branding.logoPng) : null };
    let t = performance.now();
    const png = await renderScoreCard(message.data, branding);
    const pngMs = performance.now() - t;
    t = performance.now();
    const pdf = await renderPdf(message.data, message.links, branding);
    const pdfMs = performance.now() - t;
    const bytes = (b: Buffer) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength).slice();
    const pngBytes = bytes(png);
    const pdfBytes = bytes(pdf);
    const pageBytes = message.options?.firstPagePng ? bytes(await pdfPagePng(pdf)) : undefined;
    parentPort!.postMessage(
      { id: message.id, png: pngBytes, pdf: pdfBytes, pngMs, pdfMs, ...(pageBytes ? { pagePng: pageBytes } : {}) },
      [pngBytes.buffer, pdfBytes.buffer, ...(pageBytes ? [pageBytes.buffer] : [])],
    );
  } catch (error) {
    parentPort!.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) });
  }
});
