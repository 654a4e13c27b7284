import { Hono } from 'hono';
import { analyticsBreakdownQuerySchema, analyticsExportQuerySchema, analyticsQuerySchema, MAX_RANGE_DAYS, periodDays, type AnalyticsQuery, type PeriodDays } from '../../core/analytics';
import { AppError } from '../../core/errors';
import { analyticsCsv, breakdown, periodFigures, type AnalyticsCsv } from '../analytics';
import type { AppDeps } from '../deps';
import { query } from '../http/body';

/** The days a query asks for; a custom range that is not one is refused with 400 PERIOD_INVALID. */
function daysOf(q: AnalyticsQuery): PeriodDays {
  const p = periodDays(q);
  if (!p) throw new AppError('PERIOD_INVALID', `Choose a first and a last day, the last not before the first, at most ${MAX_RANGE_DAYS} days.`, { maxDays: MAX_RANGE_DAYS });
  return p;
}

/** The analytics page's API (docs/rules.md#owner-figures): the period's figures, its breakdowns, and every table as CSV. */
export function adminAnalyticsRoutes(deps: AppDeps) {
  const db = deps.database.db;

  return new Hono()
    .get('/', query(analyticsQuerySchema), async (c) => {
      const q = c.req.valid('query');
      const period = daysOf(q);
      const { totals, series, statuses } = await periodFigures(db, period, q.group);
      return c.json({ period, group: q.group, totals, series, statuses });
    })

    .get('/breakdown', query(analyticsBreakdownQuerySchema), async (c) => {
      const q = c.req.valid('query');
      const period = daysOf(q);
      return c.json({ period, by: q.by, rows: await breakdown(db, period, q.by) });
    })

    .get('/export', query(analyticsExportQuerySchema), async (c) => {
      const q = c.req.valid('query');
      const period = daysOf(q);
      let table: AnalyticsCsv;
      if (q.table === 'series') table = { table: 'series', rows: (await periodFigures(db, period, q.group)).series };
      else if (q.table === 'statuses') table = { table: 'statuses', rows: (await periodFigures(db, period, q.group)).statuses };
      else table = { table: q.table, rows: await breakdown(db, period, q.table) };
      const name = `artim-${q.table}-${period.from}-${period.to}${q.table === 'series' ? `-${q.group}` : ''}.csv`;
      return c.body(analyticsCsv(table), 200, {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="${name}"`,
        'cache-control': 'no-store',
      });
    });
}
