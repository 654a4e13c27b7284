// @vitest-environment happy-dom
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { hydrateIsland } from './runtime';
import type { PageBoot } from './text';

/*
 * An island's hydration gives the main thread back between components (it runs in a transition):
 * a large island is not one long task that holds every tap and the page's blocking time. The
 * island's parts each take a little CPU; a task queued beside the hydration counts the tasks, and
 * each part notes in which one it hydrated.
 */

let task = 0;
let counting = false;
const countTasks = () => {
  if (!counting) return;
  task += 1;
  setImmediate(countTasks);
};

function Part({ seen }: { seen: Set<number> }) {
  const end = performance.now() + 2;
  while (performance.now() < end) {
    // a part that costs a little CPU to render
  }
  seen.add(task);
  return <li>part</li>;
}

const PARTS = 30;
function Island({ seen }: { seen: Set<number> }) {
  return (
    <ul>
      {Array.from({ length: PARTS }, (_, i) => (
        <Part key={i} seen={seen} />
      ))}
    </ul>
  );
}

const boot: PageBoot = { lang: 'en', resources: { en: {} }, me: null, site: {} } as unknown as PageBoot;

afterEach(() => {
  counting = false;
  document.body.innerHTML = '';
});

describe('hydrating an island', () => {
  it('yields to the browser between its parts instead of hydrating it in one task', async () => {
    const el = document.createElement('div');
    el.innerHTML = renderToString(<Island seen={new Set()} />);
    document.body.append(el);
    const seen = new Set<number>();
    counting = true;
    setImmediate(countTasks);
    await hydrateIsland(el, (() => <Island seen={seen} />) as never, boot);
    counting = false;
    expect(el.querySelectorAll('li')).toHaveLength(PARTS);
    // Hydrated in one task, every part would have seen the same count.
    expect(seen.size).toBeGreaterThan(1);
  });
});
