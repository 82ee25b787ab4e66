/**
 * The card gateway simulator (tools/gateway-simulator) keeps its own copy of the protocol, so that
 * the shop never imports the tool: both copies must speak the same wire shapes and signatures.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as simulator from '@shop/gateway-simulator/protocol';
import * as shop from '../../src/domains/ordering/payments/gateway-protocol.ts';

describe('the gateway protocol of the shop and of the simulator', () => {
  it('have the same message shapes', () => {
    expectTypeOf<simulator.CreatePaymentRequest>().toEqualTypeOf<shop.CreatePaymentRequest>();
    expectTypeOf<simulator.CreatePaymentAnswer>().toEqualTypeOf<shop.CreatePaymentAnswer>();
    expectTypeOf<simulator.PaymentNotification>().toEqualTypeOf<shop.PaymentNotification>();
    expectTypeOf<simulator.PaymentAction>().toEqualTypeOf<shop.PaymentAction>();
  });

  it('sign alike, in the same header, and each accepts what the other signed', () => {
    expect(simulator.SIGNATURE_HEADER).toBe(shop.SIGNATURE_HEADER);
    const secret = 'shared-secret';
    for (const body of ['', '{"amount":12345,"currency":"EUR"}', JSON.stringify({ description: 'Tehla – 24 ks, príplatok €' })]) {
      expect(simulator.sign(secret, body)).toBe(shop.sign(secret, body));
      expect(shop.verifySignature(secret, body, simulator.sign(secret, body))).toBe(true);
      expect(simulator.verifySignature(secret, body, shop.sign(secret, body))).toBe(true);
      expect(simulator.verifySignature(secret, body, shop.sign('another', body))).toBe(false);
    }
  });
});
