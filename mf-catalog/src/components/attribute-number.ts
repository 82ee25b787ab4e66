import { formatNumber } from '@shop/shared-kernel/rules';

const threeDecimals = new Intl.NumberFormat('sk-SK', { minimumFractionDigits: 3, maximumFractionDigits: 3 });

/**
 * An attribute value held in thousandths, in the spec's display style (whole numbers without
 * decimals, else two decimals, decimal comma) unless that would lose a digit: λ 0.035 stays
 * "0,035", not "0,04".
 */
export function formatAttributeNumber(thousandths: number): string {
  return thousandths % 10 === 0 ? formatNumber(thousandths / 1000) : threeDecimals.format(thousandths / 1000);
}
