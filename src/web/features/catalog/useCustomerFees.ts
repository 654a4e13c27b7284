import { useMemo } from 'react';
import type { Fees } from '../../../core/pricing';
import { useMe } from '../auth';
import { customerFees } from './orderForm';

/**
 * The list's fees with the signed-in customer's discount (docs/rules.md#discounts): what the order
 * form, the price lines and the mass order's preview price with, by the rule the server charges by.
 * Anonymous visitors (and customers without a discount) get the list's fees unchanged.
 */
export function useCustomerFees<T extends Fees | undefined>(fees: T): T {
  const discount = useMe().data?.discount ?? undefined;
  return useMemo(() => (fees && discount ? customerFees(fees, discount) : fees) as T, [fees, discount]);
}
