/**
 * What the fault and kill campaigns (src/server/security/campaign.test.ts, kills.test.ts) check of
 * every way money comes in, read from the tables once the system has settled: each top-up credited
 * at most once (its amount and what it earned, docs/rules.md#bonuses), each refund to the card
 * debited once and completed, given back once or still pending with the gateway's error
 * (docs/rules.md#top-up-refunds), what came in and went back as sums the money identity uses, and
 * whether the Payriff and PayTR sandboxes' records agree with ours.
 */
import type { SandboxOrder as PayriffOrder } from '../../../sandbox/payriff';
import type { SandboxOrder as PaytrOrder } from '../../../sandbox/paytr';
import type { Database } from '../db/client';
import { paytrMerchantOid } from '../gateways/paytr';
import { keptOnBalanceMicros } from '../payments/refund';

interface PaymentLine {
  id: string;
  reference: string;
  method: string;
  status: string;
  flagged: boolean;
  flag_reason: string | null;
  transaction_id: string | null;
  amount_minor: string;
  credited: string;
  earned: string;
  bonus_micros: string;
  coupon_micros: string;
  reversed: boolean;
  refund_status: string | null;
  refund_error: string | null;
  refunded_minor: string | null;
  amount_usd_micros: string;
  topup: number;
  deposit_bonus: number;
  coupon_bonus: number;
  topup_refund: number;
  bonus_reversal: number;
  topup_refund_failed: number;
  topup_refund_partial: number;
  receipt: boolean;
}

/** Every payment with what it earned and how many ledger entries of each kind name it. */
export async function paymentLines(database: Database): Promise<PaymentLine[]> {
  return database.query<PaymentLine>(`
    select p.id, p.reference, p.method, p.status, p.flagged, p.flag_reason, p.transaction_id, p.amount_minor::text,
      (p.amount_usd_micros + p.bonus_micros + p.coupon_micros)::text as credited, (p.bonus_micros + p.coupon_micros)::text as earned,
      p.reversed_at is not null as reversed, p.refund_status, p.refund_error, p.refunded_minor::text, p.amount_usd_micros::text,
      (select count(*)::int from ledger_entries l where l.kind = 'topup' and l.reference = p.id::text) as topup,
      (select count(*)::int from ledger_entries l where l.kind = 'deposit_bonus' and l.reference = p.id::text and l.amount_micros = p.bonus_micros) as deposit_bonus,
      (select count(*)::int from ledger_entries l where l.kind = 'coupon_bonus' and l.reference = p.id::text and l.amount_micros = p.coupon_micros) as coupon_bonus,
      (select count(*)::int from ledger_entries l where l.kind = 'topup_refund' and l.reference = p.id::text and l.amount_micros = -p.amount_usd_micros) as topup_refund,
      (select count(*)::int from ledger_entries l where l.kind = 'bonus_reversal' and l.reference = p.id::text and l.amount_micros = -(p.bonus_micros + p.coupon_micros)) as bonus_reversal,
      (select count(*)::int from ledger_entries l where l.kind = 'topup_refund_failed' and l.reference = p.id::text and l.amount_micros = p.amount_usd_micros + p.bonus_micros + p.coupon_micros) as topup_refund_failed,
      (select count(*)::int from ledger_entries l where l.kind = 'topup_refund_partial' and l.reference = p.id::text) as topup_refund_partial,
      exists (select 1 from payment_receipts r where r.payment_id = p.id) as receipt,
      p.bonus_micros::text, p.coupon_micros::text
    from payments p order by p.created_at`);
}

/** What a partial refund to the card left on the balance (the share of the amount the card did not get back). */
const keptOf = (p: PaymentLine) =>
  p.refund_status === 'partial' && p.refunded_minor !== null ? keptOnBalanceMicros({ amountUsdMicros: Number(p.amount_usd_micros), amountMinor: Number(p.amount_minor) }, Number(p.refunded_minor)) : 0;

/** What refunds to the card took from the balance in all: their credit, less what a refused one gave back, less what a partial one left. */
export const refundedMicros = (lines: PaymentLine[]) =>
  lines.reduce((sum, p) => sum + (p.refund_status && p.refund_status !== 'failed' ? Number(p.credited) - keptOf(p) : 0), 0);

/**
 * Problems in how each payment reached the balance and left it again (should be none): a completed
 * top-up has exactly one `topup` entry and one entry for each thing it earned, any other none; a
 * refund was asked of a completed, unreversed top-up, took its amount once (`topup_refund`) and
 * what it earned once (`bonus_reversal`), and is `completed`, `failed` with everything given back
 * once (`topup_refund_failed`), `partial` with the share the card did not get given back once
 * (`topup_refund_partial`), or `pending` with the gateway's last error.
 */
export function paymentProblems(lines: PaymentLine[]): string[] {
  const problems: string[] = [];
  for (const p of lines) {
    const done = p.status === 'completed';
    const want = {
      topup: done ? 1 : 0,
      deposit_bonus: done && Number(p.bonus_micros) > 0 ? 1 : 0,
      coupon_bonus: done && Number(p.coupon_micros) > 0 ? 1 : 0,
      topup_refund: p.refund_status ? 1 : 0,
      bonus_reversal: p.refund_status && Number(p.earned) > 0 ? 1 : 0,
      topup_refund_failed: p.refund_status === 'failed' ? 1 : 0,
      topup_refund_partial: keptOf(p) > 0 ? 1 : 0,
    };
    for (const [kind, n] of Object.entries(want)) {
      const got = p[kind as keyof typeof want];
      if (got !== n) problems.push(`${p.method} ${p.reference} ${p.status}${p.refund_status ? ` refund ${p.refund_status}` : ''}: ${got} ${kind} entries, ${n} expected`);
    }
    if (p.refund_status && (!done || p.reversed)) problems.push(`${p.reference}: refund ${p.refund_status} of a payment ${p.status}${p.reversed ? ', reversed' : ''}`);
    if (p.refund_status === 'pending' && !p.refund_error) problems.push(`${p.reference}: refund pending without the gateway's error`);
    if (p.refund_status && !['pending', 'completed', 'failed', 'partial'].includes(p.refund_status)) problems.push(`${p.reference}: refund ${p.refund_status}`);
  }
  return problems;
}

/**
 * What came in through payments and went back, in micro-dollars: completed top-ups with what they
 * earned, chargebacks of them, and refunds to the card that took their credit back (pending or
 * completed; a failed one gave it back, a partial one the share the card did not get). Checked
 * against the ledger's own sums of those kinds.
 */
export async function paymentMoney(database: Database): Promise<{ topups: number; chargebacks: number; refunds: number; problems: string[] }> {
  const refunds = refundedMicros(await paymentLines(database));
  const [m] = await database.query<Record<string, string>>(`
    select
      (select coalesce(sum(amount_usd_micros + bonus_micros + coupon_micros), 0) from payments where status = 'completed')::text as topups,
      (select coalesce(sum(amount_usd_micros + bonus_micros + coupon_micros), 0) from payments where reversed_at is not null)::text as chargebacks,
      (select coalesce(sum(l.amount_micros), 0) from ledger_entries l join payments p on l.reference = p.id::text where l.kind in ('topup', 'deposit_bonus', 'coupon_bonus'))::text as ledger_topups,
      (select coalesce(-sum(amount_micros), 0) from ledger_entries where kind = 'chargeback')::text as ledger_chargebacks,
      (select coalesce(-sum(amount_micros), 0) from ledger_entries where kind in ('topup_refund', 'bonus_reversal', 'topup_refund_failed', 'topup_refund_partial'))::text as ledger_refunds`);
  const n: Record<string, number> = { ...Object.fromEntries(Object.entries(m!).map(([k, v]) => [k, Number(v)])), refunds };
  const problems: string[] = [];
  for (const k of ['topups', 'chargebacks', 'refunds'] as const) {
    if (n[k] !== n[`ledger_${k}`]) problems.push(`${k}: payments say ${n[k]}, the ledger ${n[`ledger_${k}`]}`);
  }
  return { topups: n.topups!, chargebacks: n.chargebacks!, refunds, problems };
}

const PAID_AT_PAYRIFF = ['APPROVED', 'REFUNDED', 'PARTIAL_REFUND'];

/**
 * Where the sandbox Payriff and our records disagree (should be nowhere): every order is one of our
 * payments (by its reference); a completed payment was paid there, in full; an order paid there is
 * credited here or flagged for the team; an order is REFUNDED there exactly when its refund is
 * completed here; and a refund settled partial here gave back what the order there says went back.
 */
export function payriffDisagreements(orders: PayriffOrder[], lines: PaymentLine[]): string[] {
  const problems: string[] = [];
  const ours = lines.filter((p) => p.method === 'payriff');
  const byReference = new Map(ours.map((p) => [p.reference, p]));
  const seen = new Set<string>();
  for (const o of orders) {
    const p = byReference.get(o.metadata?.reference ?? '');
    if (!p) {
      problems.push(`Payriff order ${o.orderId} (${o.status}) is none of our payments`);
      continue;
    }
    seen.add(p.reference);
    if (p.transaction_id !== null && p.transaction_id !== o.orderId) problems.push(`${p.reference}: transaction ${p.transaction_id}, Payriff order ${o.orderId}`);
    const paid = PAID_AT_PAYRIFF.includes(o.status);
    if (p.status === 'completed' && (!paid || o.amountQepik !== Number(p.amount_minor))) problems.push(`${p.reference} completed, Payriff ${o.status} ${o.amountQepik} qəpik`);
    if (paid && p.status !== 'completed' && !p.flagged) problems.push(`${p.reference} paid at Payriff (${o.status}), ${p.status} here and not flagged`);
    if ((o.status === 'REFUNDED') !== (p.refund_status === 'completed')) problems.push(`${p.reference}: Payriff ${o.status} (refunded ${o.refundedQepik}), refund ${p.refund_status ?? 'none'} here`);
    // Part of it given back (from the dashboard): a refund asked since settles partial with that part.
    if (p.refund_status === 'partial' && (o.status !== 'PARTIAL_REFUND' || Number(p.refunded_minor) !== o.refundedQepik)) problems.push(`${p.reference}: refund partial (${p.refunded_minor}) here, Payriff ${o.status} ${o.refundedQepik}`);
    // A refund failed here gave the whole balance back: the card must not have got any of it.
    if (p.refund_status === 'failed' && o.refundedQepik > 0) problems.push(`${p.reference}: refund failed here, Payriff ${o.status} gave back ${o.refundedQepik}`);
  }
  for (const p of ours) if (p.status === 'completed' && !seen.has(p.reference)) problems.push(`${p.reference} completed without a Payriff order`);
  return problems;
}

/**
 * Where the PayTR sandbox and our records disagree (should be nowhere): every order is one of our
 * payments (its merchant_oid is our reference without hyphens); a completed payment was paid there
 * in the same kuruş; an order paid there is credited here or flagged for the team.
 */
export function paytrDisagreements(orders: PaytrOrder[], lines: PaymentLine[]): string[] {
  const problems: string[] = [];
  const ours = lines.filter((p) => p.method === 'paytr');
  const byOid = new Map(ours.map((p) => [paytrMerchantOid(p.reference), p]));
  const seen = new Set<string>();
  for (const o of orders) {
    const p = byOid.get(o.merchantOid);
    if (!p) {
      problems.push(`PayTR order ${o.merchantOid} (${o.status}) is none of our payments`);
      continue;
    }
    seen.add(p.reference);
    if (p.status === 'completed' && (o.status !== 'success' || o.amountKurus !== Number(p.amount_minor))) problems.push(`${p.reference} completed, PayTR ${o.status} ${o.amountKurus} kuruş`);
    if (o.status === 'success' && p.status !== 'completed' && !p.flagged) problems.push(`${p.reference} paid at PayTR, ${p.status} here and not flagged`);
  }
  for (const p of ours) if (p.status === 'completed' && !seen.has(p.reference)) problems.push(`${p.reference} completed without a PayTR order`);
  return problems;
}

/**
 * Payments neither final nor explained (should be none once settled): a pending card payment is
 * flagged for the team with the reason; a bank transfer waits for the team only without a receipt
 * (the campaigns review every one that has one); a flagged payment is never completed.
 */
export function openPayments(lines: PaymentLine[]): string[] {
  const problems: string[] = [];
  for (const p of lines) {
    // A partial refund to the card flags its completed top-up for the team.
    if (p.flagged && (!p.flag_reason || (p.status === 'completed' && p.refund_status !== 'partial'))) problems.push(`${p.reference} flagged ${p.status}: ${p.flag_reason}`);
    if (p.status !== 'pending') continue;
    if (p.method === 'bank' ? p.receipt : !p.flagged) problems.push(`${p.method} ${p.reference} pending${p.method === 'bank' ? ' with its receipt' : ''}`);
  }
  return problems;
}
