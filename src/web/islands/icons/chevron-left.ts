import { icon } from '../icon';

export const ChevronLeft = /* @__PURE__ */ icon('chevron-left', [["path",{d:"m15 18-6-6 6-6"}]]);
