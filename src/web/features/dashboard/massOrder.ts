import type { PublicService } from '../../../core/contracts/catalog';
import type { Fees } from '../../../core/pricing';
import { normalizeLink } from '../../../core/linkKey';
import { MASS_ORDER_MAX_LINES, parseMassOrder } from '../../../core/massOrder';
import type { OrderInputIssue } from '../../../core/orderRules';
import { orderIssues, orderTotal } from '../catalog/pages';

/**
 * The mass order's preview: every pasted line read with the same parser the server uses,
 * checked with the order form's shared rules and priced with the shared price function. The
 * server checks and prices each line again when it places it.
 */

export type MassLineProblem =
  | { kind: 'format' }
  | { kind: 'service' }
  /** The service needs extra details (a required field: comments, usernames): only the order form can take them. */
  | { kind: 'params' }
  /** Another line of the same text already orders this link. */
  | { kind: 'duplicate'; line: number }
  | { kind: 'issue'; issue: OrderInputIssue }
  | { kind: 'price' };

export interface MassPreviewLine {
  line: number;
  text: string;
  service?: PublicService;
  link?: string;
  quantity?: number;
  totalMicros: number | null;
  problem: MassLineProblem | null;
}

export interface MassPreview {
  lines: MassPreviewLine[];
  /** Lines that would be placed, and what they cost together. */
  valid: number;
  totalMicros: number;
  tooMany: boolean;
}

export function previewMassOrder(text: string, services: ReadonlyMap<string, PublicService>, fees: Fees): MassPreview {
  const seen = new Map<string, number>();
  const lines = parseMassOrder(text).map((entry): MassPreviewLine => {
    if (!entry.ok) return { line: entry.line, text: entry.text, totalMicros: null, problem: { kind: 'format' } };
    const base = { line: entry.line, text: `${entry.serviceId}|${entry.link}|${entry.quantity}`, link: entry.link, quantity: entry.quantity, totalMicros: null };
    const service = services.get(entry.serviceId);
    if (!service) return { ...base, problem: { kind: 'service' } };
    const withService = { ...base, service };
    // Optional fields are left out: such a service is ordered without them.
    if (service.needsParams) return { ...withService, problem: { kind: 'params' } };
    const issue = orderIssues(service, [], { link: entry.link, quantity: String(entry.quantity), params: {} })[0];
    if (issue) return { ...withService, problem: { kind: 'issue', issue } };
    const key = `${service.platform} ${normalizeLink(entry.link)}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) return { ...withService, problem: { kind: 'duplicate', line: earlier } };
    seen.set(key, entry.line);
    const totalMicros = orderTotal(service, entry.quantity, fees);
    if (!totalMicros) return { ...withService, problem: { kind: 'price' } };
    return { ...withService, totalMicros, problem: null };
  });
  const placeable = lines.filter((l) => l.problem === null);
  return {
    lines,
    valid: placeable.length,
    totalMicros: placeable.reduce((sum, l) => sum + (l.totalMicros ?? 0), 0),
    tooMany: lines.length > MASS_ORDER_MAX_LINES,
  };
}
