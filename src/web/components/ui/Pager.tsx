import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from './Button';

/** Previous and next page of a list, with where the reader is ("Page 2 of 5"); nothing when it all fits on one page. */
export function Pager({
  page,
  pages,
  label,
  position,
  previous,
  next,
  onPage,
}: {
  page: number;
  pages: number;
  /** The navigation's name for screen readers. */
  label: string;
  position: string;
  previous: string;
  next: string;
  onPage: (page: number) => void;
}) {
  if (pages <= 1) return null;
  return (
    <nav aria-label={label} className="flex flex-wrap items-center justify-between gap-3 pt-4">
      <p className="text-sm text-slate-600">{position}</p>
      <div className="flex gap-2">
        <Button size="sm" variant="outline" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          <ChevronLeft className="size-4" aria-hidden="true" />
          {previous}
        </Button>
        <Button size="sm" variant="outline" disabled={page >= pages} onClick={() => onPage(page + 1)}>
          {next}
          <ChevronRight className="size-4" aria-hidden="true" />
        </Button>
      </div>
    </nav>
  );
}
