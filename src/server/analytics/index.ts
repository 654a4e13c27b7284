/** The owner's figures: what the admin area (dashboard, analytics) may use of them. */
export { breakdown, customerBalances, ordersByStatus, periodFigures, periodTotals, topUpsAllTime, type BreakdownRow, type FigureRow, type SeriesRow } from './figures';
export { analyticsCsv, type AnalyticsCsv } from './csv';
export { analyticsJobs, ROLLUP_JOB } from './rollup';
