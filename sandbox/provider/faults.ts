import { z } from 'zod';

/** Faults a test can inject into the sandbox's protocol endpoints. */
export const faultConfigSchema = z.object({
  /** Delay before answering. */
  latencyMs: z.number().int().nonnegative().optional(),
  /**
   * normal: answer; timeout: never answer; 5xx: 503 with an HTML page; garbage: 200 with a body
   * that is not JSON; refuse: the protocol's refusal (qqtube status "error", v2 `{ error }`).
   */
  mode: z.enum(['normal', 'timeout', '5xx', 'garbage', 'refuse']).optional(),
  /** Only these actions are faulted (e.g. ['add']); all when missing. */
  actions: z.array(z.string()).optional(),
  /** Fault only the next N matching calls, then go back to normal. */
  times: z.number().int().positive().optional(),
  /** For `add`: record the order, then never answer (the ambiguous case). */
  acceptThenTimeout: z.boolean().optional(),
  /** The refusal text for mode 'refuse'. */
  message: z.string().optional(),
});
export type FaultConfig = z.infer<typeof faultConfigSchema>;

export interface FaultState extends FaultConfig {
  /** Matching calls still to fault when `times` was given. */
  remaining?: number;
}

/** The fault to apply to one call. */
export interface AppliedFault {
  latencyMs: number;
  mode: NonNullable<FaultConfig['mode']>;
  acceptThenTimeout: boolean;
  message?: string;
}

export class Faults {
  private config: FaultConfig = {};
  private remaining: number | undefined;

  set(config: FaultConfig): void {
    this.config = faultConfigSchema.parse(config);
    this.remaining = this.config.times;
  }

  get(): FaultState {
    return this.remaining === undefined ? { ...this.config } : { ...this.config, remaining: this.remaining };
  }

  reset(): void {
    this.set({});
  }

  /** The fault for a call of `action`, or null; counts the call against `times`. */
  take(action: string): AppliedFault | null {
    const c = this.config;
    const active = (c.mode && c.mode !== 'normal') || c.latencyMs || c.acceptThenTimeout;
    if (!active) return null;
    if (c.actions && !c.actions.includes(action)) return null;
    const applied: AppliedFault = {
      latencyMs: c.latencyMs ?? 0,
      mode: c.mode ?? 'normal',
      acceptThenTimeout: !!c.acceptThenTimeout && action === 'add',
      message: c.message,
    };
    if (this.remaining !== undefined && --this.remaining <= 0) this.reset();
    return applied;
  }
}
