import { describe, expect, it } from 'vitest';
import { describeNetworkFailure, explainNetworkFailure } from './network-failure.js';

/** undici's shape: a TypeError('fetch failed') or its own error, with the system error in `cause`. */
function systemError(code: string, message = `connect ${code} 1.2.3.4:443`): Error {
  return Object.assign(new TypeError('fetch failed'), {
    cause: Object.assign(new Error(message), { code }),
  });
}

describe('explainNetworkFailure', () => {
  it('says a name that does not resolve means no network or no DNS, and what to do', () => {
    for (const code of ['ENOTFOUND', 'EAI_AGAIN']) {
      const failure = explainNetworkFailure(systemError(code), 'https://huggingface.co/api/models/x?token=1');
      expect(failure.reason).toBe(`cannot resolve huggingface.co (${code})`);
      expect(failure.hint).toMatch(/offline or has no DNS; behind a proxy, set HTTPS_PROXY/);
      expect(failure.hint).toContain('Models without network');
    }
  });

  it('tells a refused connection, a missing route, a dropped answer and a refused certificate apart', () => {
    const url = 'https://hub.example:8443/x';
    expect(explainNetworkFailure(systemError('ECONNREFUSED'), url).reason).toBe(
      'hub.example:8443 refused the connection (ECONNREFUSED)',
    );
    expect(explainNetworkFailure(systemError('ENETUNREACH'), url).hint).toMatch(/offline, or a firewall/);
    expect(explainNetworkFailure({ code: 'UND_ERR_CONNECT_TIMEOUT' }, url).reason).toBe(
      'no connection to hub.example:8443 (UND_ERR_CONNECT_TIMEOUT)',
    );
    expect(explainNetworkFailure(systemError('ECONNRESET'), url).hint).toBe('run the pull again to resume');
    expect(explainNetworkFailure(systemError('SELF_SIGNED_CERT_IN_CHAIN'), url).hint).toContain(
      'NODE_EXTRA_CA_CERTS',
    );
  });

  it('keeps an unknown failure’s own message and code, and never shows the URL’s path or query', () => {
    const failure = explainNetworkFailure(
      systemError('EWEIRD', 'something odd'),
      'https://h.example/a?key=s3cret',
    );
    expect(failure).toEqual({ reason: 'something odd (EWEIRD)', hint: null });
    const named = describeNetworkFailure(
      explainNetworkFailure(systemError('ENOTFOUND'), 'https://h.example/a?key=s3cret'),
    );
    expect(named).not.toContain('s3cret');
    expect(named).not.toContain('/a');
  });
});
