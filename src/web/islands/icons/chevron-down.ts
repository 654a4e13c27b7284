import { icon } from '../icon';

export const ChevronDown = /* @__PURE__ */ icon('chevron-down', [["path",{d:"m6 9 6 6 6-6"}]]);
