import type { ReactNode } from 'react';
import { cn } from './cn';

export interface TableColumn {
  label: string;
  /** Classes of this column's header cell, after the table's own (alignment, say). */
  className?: string;
}

/** A table's header row: one column header a column, each with `cellClassName` and its own classes. */
export function TableHead({ columns, className, cellClassName }: { columns: readonly TableColumn[]; className: string; cellClassName: string }) {
  return (
    <thead className={className}>
      <tr>
        {columns.map((column) => (
          <th key={column.label} scope="col" className={cn(cellClassName, column.className)}>
            {column.label}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** The wide-screen table of a customer's list (hidden on phones, which show cards): caption, headers, rows. */
export function WideTable({ caption, columns, children }: { caption: string; columns: readonly TableColumn[]; children: ReactNode }) {
  return (
    <div className="hidden overflow-x-auto rounded-2xl border border-slate-200 bg-white shadow-sm md:block">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <TableHead columns={columns} className="bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-500" cellClassName="px-4 py-3" />
        <tbody className="divide-y divide-slate-100">{children}</tbody>
      </table>
    </div>
  );
}
