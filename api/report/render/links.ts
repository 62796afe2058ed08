// The addresses of a report: its online page, its PDF, and the methodology its files link to.
import type { AppContext } from '../../context.ts';
import { METHODOLOGY_PATH } from '../words/labels.ts';
import type { ReportLinks } from './pdf.ts';

export const reportUrl = (ctx: AppContext, token: string) => `${ctx.env.PUBLIC_BASE_URL}/report/${token}`;

export const reportPdfUrl = (ctx: AppContext, token: string) => `${ctx.env.PUBLIC_BASE_URL}/api/reports/${token}/report.pdf`;

/** The addresses a rendered report links to. */
export const reportLinks = (ctx: AppContext): ReportLinks => ({ methodologyUrl: `${ctx.env.PUBLIC_BASE_URL}${METHODOLOGY_PATH}` });
