import { icon } from '../icon';

export const Music2 = /* @__PURE__ */ icon('eighth-note music-2', [["path",{d:"m19 6-5.2-3.9a.5.5 0 0 0-.8.4V18"}],["circle",{cx:"9",cy:"18",r:"4"}]]);
