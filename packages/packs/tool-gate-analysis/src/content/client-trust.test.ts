import { describe, expect, it } from 'vitest';
import { judgeClientTrust } from './client-trust.js';

const codes = (removed: string, inserted: string) =>
  judgeClientTrust(inserted, removed).map((finding) => finding.code);

describe('values the client chooses, used where the server decides', () => {
  it('a price, amount, role or owner taken from the request', () => {
    expect(
      codes('const amount = await priceOf(cart);', 'const amount = req.body.amount ?? await priceOf(cart);'),
    ).toEqual(['content.client-chooses:amount']);
    expect(codes('user.role = "member"', 'user.role = request.body.role')).toEqual([
      'content.client-chooses:role',
    ]);
  });

  it('an identity header any client can set, used to identify or limit', () => {
    expect(
      codes(
        '  keyGenerator: (req) => req.ip,',
        "  keyGenerator: (req) => req.headers['x-forwarded-for'] || req.ip,",
      ),
    ).toEqual(['content.client-sets-identity:x-forwarded-for']);
  });

  it('routine twins: a value the server computes, a logged header, a value kept as it was', () => {
    expect(
      codes('const amount = await priceOf(cart);', 'const amount = await priceOf(cart, coupon);'),
    ).toEqual([]);
    expect(codes('', "logger.info({ forwarded: req.headers['x-forwarded-for'] }, 'request');")).toEqual([]);
    expect(codes('const q = req.body.amount;', 'const q = req.body.amount;\nconst r = 1;')).toEqual([]);
  });
});
