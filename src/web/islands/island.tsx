import type { ComponentType } from 'react';
import { ISLAND_ATTR, ISLAND_PROPS_ATTR, ISLAND_TEXT_ATTR, ISLAND_WAKE_ATTR, ISLAND_WAKE_QUERY_ATTR, type WAKE_WHEN_ASKED, type WAKE_WHEN_TOUCHED } from './attrs';

export { HYDRATED_ATTR, ISLAND_ATTR, ISLAND_PROPS_ATTR, ISLAND_WAKE_ATTR } from './attrs';

/**
 * Marks a component as an island: an interactive part of a page that otherwise ships no
 * JavaScript. On the server (and inside the full app) it renders as usual, inside a wrapper that
 * names it and carries its props; on a public page the browser hydrates only these wrappers
 * (docs/decisions/0009-islands.md). Props must be JSON; the name is the component's entry in
 * ./registry.ts, where the browser finds its code (islands.test.ts checks every name is there).
 *
 *     export const HeaderIsland = island('Header', Header);
 *
 * `{ wake: 'asked' }` for a component that renders nothing until something on the page asks for
 * it (a dialog's host, the notices): its code loads only when asked (./ask.ts). `{ wake: 'touched' }`
 * for one whose markup works as rendered until the visitor uses it (./attrs.ts): its code loads at
 * the first touch inside it, or at idle when the address has one of the `query` parameters it acts
 * on by itself; `text`, the namespaces it shows at once when the address wakes it (./attrs.ts).
 */
export function island<P extends object>(
  name: string,
  Component: ComponentType<P>,
  options: { wake?: typeof WAKE_WHEN_ASKED | typeof WAKE_WHEN_TOUCHED; query?: readonly string[]; text?: readonly string[] } = {},
): ComponentType<P> {
  const query = options.query?.length ? options.query.join(' ') : undefined;
  const text = query && options.text?.length ? options.text.join(' ') : undefined;
  function Island(props: P) {
    const json = JSON.stringify(props);
    return (
      // `display: contents`: the wrapper takes no box, so the layout is the component's own.
      <div
        {...{ [ISLAND_ATTR]: name, [ISLAND_PROPS_ATTR]: json === '{}' ? undefined : json, [ISLAND_WAKE_ATTR]: options.wake, [ISLAND_WAKE_QUERY_ATTR]: query, [ISLAND_TEXT_ATTR]: text }}
        className="contents"
      >
        <Component {...props} />
      </div>
    );
  }
  Island.displayName = `Island(${name})`;
  return Island;
}
