import { describe, expect, it } from 'vitest';
import { isSecretName } from './secret-name.js';

describe('isSecretName', () => {
  it.each([
    'password',
    'DB_PASSWORD',
    'passwd',
    'passphrase',
    'secret',
    'client_secret',
    'clientSecret',
    'GITHUB_TOKEN',
    'access_token',
    'sessionToken',
    'api_key',
    'apiKey',
    'APIKEY',
    'x-api-key',
    'private_key',
    'privateKey',
    'AWS_SECRET_ACCESS_KEY',
    'ENCRYPTION_KEY',
    'credentials',
    'auth',
    'npm.authToken',
  ])('%s names a secret', (name) => {
    expect(isSecretName(name)).toBe(true);
  });

  it.each([
    'max_tokens',
    'input_tokens',
    'tokenizer',
    'token_count',
    'password_min_length',
    'passwordPolicy',
    'secret_name',
    'primary_key',
    'sort_key',
    'key',
    'author',
    'PWD',
    'PATH',
    'HTTPTokenizer',
    '',
  ])('%s does not', (name) => {
    expect(isSecretName(name)).toBe(false);
  });
});
