import { icon } from '../icon';

export const UserRound = /* @__PURE__ */ icon('user-round user-2', [["circle",{cx:"12",cy:"8",r:"5"}],["path",{d:"M20 21a8 8 0 0 0-16 0"}]]);
