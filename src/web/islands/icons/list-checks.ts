import { icon } from '../icon';

export const ListChecks = /* @__PURE__ */ icon('list-checks', [["path",{d:"M13 5h8"}],["path",{d:"M13 12h8"}],["path",{d:"M13 19h8"}],["path",{d:"m3 17 2 2 4-4"}],["path",{d:"m3 7 2 2 4-4"}]]);
