import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { TabList, TabPanel, tabAfterKey } from './Tabs';

describe('tabs', () => {
  it('arrows move to the next or previous tab and wrap around; Home and End go to the ends; other keys do nothing', () => {
    expect([tabAfterKey('ArrowRight', 0, 3), tabAfterKey('ArrowDown', 2, 3)]).toEqual([1, 0]);
    expect([tabAfterKey('ArrowLeft', 0, 3), tabAfterKey('ArrowUp', 2, 3)]).toEqual([2, 1]);
    expect([tabAfterKey('Home', 2, 3), tabAfterKey('End', 0, 3)]).toEqual([0, 2]);
    expect(tabAfterKey('Enter', 1, 3)).toBe(-1);
  });

  it('is a labelled tab list with only the selected tab in the Tab order, tied to its panel', () => {
    const items = [
      { id: 'a', label: 'First' },
      { id: 'b', label: 'Second' },
    ] as const;
    const html = renderToStaticMarkup(
      <>
        <TabList items={items} value="b" onChange={() => {}} label="Parts" idPrefix="t" look="pill" />
        <TabPanel id="b" idPrefix="t" active>
          Body
        </TabPanel>
        <TabPanel id="a" idPrefix="t" active={false}>
          Hidden
        </TabPanel>
      </>,
    );
    expect(html).toMatch(/role="tablist" aria-label="Parts"/);
    expect(html).toMatch(/role="tab" id="t-tab-a" aria-selected="false" tabindex="-1"/);
    expect(html).toMatch(/role="tab" id="t-tab-b" aria-selected="true" aria-controls="t-panel-b" tabindex="0"/);
    expect(html).toMatch(/role="tabpanel" id="t-panel-b" aria-labelledby="t-tab-b"/);
    expect(html).not.toContain('Hidden');
  });
});
