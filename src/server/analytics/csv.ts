import { minorToDecimal, microsToDecimal } from '../../core/money';
import type { BreakdownRow, FigureRow, SeriesRow } from './figures';

/**
 * The analytics tables as CSV for a spreadsheet: UTF-8 with a byte-order mark (Excel reads the
 * letters of az and tr right), comma-separated, CRLF lines, amounts as plain decimals (USD with up
 * to 6 decimals, AZN with 2), margin in percent. Headers are the figures' names (docs/rules.md#owner-figures).
 */

const BOM = '\uFEFF';

function cell(v: string | number | null): string {
  const s = v === null ? '' : String(v);
  // A leading =, +, - or @ would be read as a formula by a spreadsheet.
  const safe = /^[=+\-@\t\r]/.test(s) && !/^-?\d/.test(s) ? `'${s}` : s;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const toCsv = (header: string[], rows: (string | number | null)[][]) => BOM + [header, ...rows].map((r) => r.map(cell).join(',')).join('\r\n') + '\r\n';

const usd = microsToDecimal;
const figures = (r: FigureRow) => [usd(r.salesMicros), usd(r.refundsMicros), usd(r.costMicros), usd(r.grossProfitMicros), r.marginPercent, usd(r.topUpsMicros), minorToDecimal(r.topUpsQepik), r.orders, r.newCustomers];
const FIGURE_HEADER = ['sales_usd', 'refunds_usd', 'cost_usd', 'gross_profit_usd', 'margin_percent', 'top_ups_usd', 'top_ups_azn', 'orders', 'new_customers'];

export type AnalyticsCsv =
  | { table: 'series'; rows: SeriesRow[] }
  | { table: 'statuses'; rows: { status: string; orders: number }[] }
  | { table: 'platform' | 'service' | 'provider' | 'customer'; rows: BreakdownRow[] };

export function analyticsCsv(t: AnalyticsCsv): string {
  switch (t.table) {
    case 'series':
      return toCsv(['period_start', ...FIGURE_HEADER], t.rows.map((r) => [r.bucket, ...figures(r)]));
    case 'statuses':
      return toCsv(['status', 'orders'], t.rows.map((r) => [r.status, r.orders]));
    default:
      return toCsv(
        [t.table, 'name', 'sales_usd', 'refunds_usd', 'cost_usd', 'gross_profit_usd', 'margin_percent', 'orders'],
        t.rows.map((r) => [r.key, r.label, usd(r.salesMicros), usd(r.refundsMicros), usd(r.costMicros), usd(r.grossProfitMicros), r.marginPercent, r.orders]),
      );
  }
}
