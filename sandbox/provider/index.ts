export { parseLatencyRange, startSandboxProvider, type LatencyRange, type SandboxControl, type SandboxProvider, type SandboxProviderOptions } from './server';
export type { FaultConfig, FaultState } from './faults';
export type { OrderView, SandboxStatus } from './orders';
export { generateCatalog, toV2Service, type SandboxService, type WireService } from './catalog';
