import { formatNumber } from '@shop/shared-kernel/rules';

/**
 * An attribute value held in thousandths, in the display style of requirements R9.2 (whole numbers without
 * decimals, else two decimals, decimal comma) unless that would lose a digit: λ 0.035 stays
 * "0,035", not "0,04". Written out like the kernel's formatNumber (no Intl formatter in the boot).
 */
export function formatAttributeNumber(thousandths: number): string {
  if (thousandths % 10 === 0) return formatNumber(thousandths / 1000);
  const magnitude = Math.abs(Math.round(thousandths));
  const text = `${formatNumber(Math.trunc(magnitude / 1000))},${String(magnitude % 1000).padStart(3, '0')}`;
  return thousandths < 0 ? `-${text}` : text;
}
