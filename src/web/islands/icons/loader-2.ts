import { icon } from '../icon';

export const Loader2 = /* @__PURE__ */ icon('loader-circle loader-2', [["path",{d:"M21 12a9 9 0 1 1-6.219-8.56"}]]);
