// Half of an import cycle, for layering.test.ts: lint must refuse it.
import { b } from './cycleB';

export const a = (): string => `a${b.name}`;
