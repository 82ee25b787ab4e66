/** Bank transfer instructions with the Slovak banks' PAY by square QR code (bysquare → qrcode SVG). */
import { CurrencyCode, encode, PaymentOptions } from 'bysquare/pay';
import QRCode from 'qrcode';
import type { TransferInstructions } from '@shop/shared-kernel/contract';

export type TransferInput = {
  iban: string;
  beneficiary: string;
  variableSymbol: string;
  /** Thousandths of a euro. */
  amount: number;
  note: string;
};

/** The PAY by square string of a payment order. */
export function payBySquarePayload(input: TransferInput): string {
  return encode({
    payments: [
      {
        type: PaymentOptions.PaymentOrder,
        amount: Math.round(input.amount / 10) / 100,
        currencyCode: CurrencyCode.EUR,
        variableSymbol: input.variableSymbol,
        paymentNote: input.note,
        beneficiary: { name: input.beneficiary },
        bankAccounts: [{ iban: input.iban }],
      },
    ],
  });
}

/** The QR code as a PNG (for e-mail, where SVG is poorly supported). */
export function payBySquarePng(input: TransferInput): Promise<Buffer> {
  return QRCode.toBuffer(payBySquarePayload(input), { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 240 });
}

export async function transferInstructions(input: TransferInput): Promise<TransferInstructions> {
  const payload = payBySquarePayload(input);
  const qrSvg = await QRCode.toString(payload, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { iban: input.iban, variableSymbol: input.variableSymbol, amount: input.amount, beneficiary: input.beneficiary, qrSvg };
}
