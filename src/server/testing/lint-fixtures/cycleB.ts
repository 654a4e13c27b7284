// The other half of the import cycle of cycleA.ts.
import { a } from './cycleA';

export const b = (): string => `b${a.name}`;
