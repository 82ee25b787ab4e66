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

/**
 * The last few payloads and QR codes made: an order's answer and later views of it (a reload of the
 * thank-you page, the account's order) encode the same payment, and both the LZMA-compressed payload
 * and the QR code are pure functions of their input.
 */
const RECENT = 256;
const recentPayloads = new Map<string, string>();
const recentSvgs = new Map<string, string>();

function remember(map: Map<string, string>, key: string, value: string): string {
  map.set(key, value);
  if (map.size > RECENT) map.delete(map.keys().next().value!);
  return value;
}

/** The PAY by square string of a payment order. */
export function payBySquarePayload(input: TransferInput): string {
  const key = JSON.stringify([input.iban, input.beneficiary, input.variableSymbol, input.amount, input.note]);
  return recentPayloads.get(key) ?? remember(recentPayloads, key, encodePayload(input));
}

function encodePayload(input: TransferInput): string {
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

/**
 * pngjs options: the Paeth filter on every row instead of trying all five per row (the default):
 * less work, and as small a file for a QR code, whose rows repeat. filterType is pngjs's option,
 * passed through by qrcode but missing from its type.
 */
const PNG_OPTIONS = { deflateLevel: 9, filterType: 4 };

/** The QR code as a PNG (for e-mail, where SVG is poorly supported). */
export function payBySquarePng(input: TransferInput): Promise<Buffer> {
  return QRCode.toBuffer(payBySquarePayload(input), {
    type: 'png',
    errorCorrectionLevel: 'M',
    margin: 2,
    width: 240,
    rendererOpts: PNG_OPTIONS,
  });
}

/** The transfer instructions an order's answer carries, the QR code as SVG. */
export async function transferInstructions(input: TransferInput): Promise<TransferInstructions> {
  const payload = payBySquarePayload(input);
  const qrSvg =
    recentSvgs.get(payload) ??
    remember(recentSvgs, payload, await QRCode.toString(payload, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }));
  return { iban: input.iban, variableSymbol: input.variableSymbol, amount: input.amount, beneficiary: input.beneficiary, qrSvg };
}
