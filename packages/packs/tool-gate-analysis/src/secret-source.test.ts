import { redact } from '@arbiter/decision';
import { describe, expect, it } from 'vitest';
import { secretLiteralKind } from './secret-source.js';

/**
 * One list of secret shapes (issue 27): a literal the decision client redacts before a call leaves
 * the machine is a literal the gate calls a secret, and the other way round. Sample tokens are
 * made up in each provider's published shape.
 */
const SAMPLES: readonly [string, string][] = [
  ['aws-access-key-id', 'AKIAIOSFODNN7EXAMPLE'],
  ['github-token', `ghp_${'a1B2c3D4e5'.repeat(4)}`],
  ['gitlab-token', 'glpat-Ab3dEf6hIj9kLm2nOp5q'],
  ['slack-token', 'xoxb-1234567890-abcdefghij'],
  ['anthropic-key', `sk-ant-${'x9Y8z7W6v5'.repeat(3)}`],
  ['openai-key', `sk-proj-${'Q1w2E3r4T5'.repeat(3)}`],
  ['google-api-key', `AIza${'Sy0123456789abcdefghijklmnopqrstu'}vw`],
  ['stripe-key', `sk_live_${'4eC39HqLyjWDarjtT1zdp7dc'}`],
  ['huggingface-token', `hf_${'aBcDeFgHiJkLmNoPqRsTuVwXyZ012345'}`],
  ['npm-token', `npm_${'a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6q7r8'}`],
  [
    'private-key',
    '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAA\n-----END OPENSSH PRIVATE KEY-----',
  ],
];

describe('secret shapes: what is redacted is flagged', () => {
  it.each(SAMPLES)('%s', (kind, token) => {
    const text = `config value: ${token}`;
    expect(redact(text)).not.toBe(text);
    expect(secretLiteralKind(text)).toBe(kind);
  });

  it('ordinary words that share a prefix are neither', () => {
    for (const text of [
      'the task-runner skips sk-ip steps',
      'AKIA is a prefix, not a key',
      'npm_config_cache is a variable',
    ])
      expect([redact(text) === text, secretLiteralKind(text)]).toEqual([true, undefined]);
  });
});
