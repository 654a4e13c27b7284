import { icon } from '../icon';

export const ListPlus = /* @__PURE__ */ icon('list-plus', [["path",{d:"M16 5H3"}],["path",{d:"M11 12H3"}],["path",{d:"M16 19H3"}],["path",{d:"M18 9v6"}],["path",{d:"M21 12h-6"}]]);
