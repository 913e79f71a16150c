import type { Finding } from './finding.js';
import { RISK } from './risk-scale.js';

/**
 * Principle 7 (supply chain), the transport half: a setting that switches off the check of who a
 * download's server is lets anyone on the network path serve the code that every later install,
 * clone or fetch runs. Turning verification off, exempting a host from it, or trusting a
 * certificate authority of the agent's choosing are one act, judged wherever it is written: a
 * configuration command (`npm config set`, `git config`, `pip config set`, `conda config --set`),
 * an environment variable, or a command-line option.
 */

/** Settings that verify the server when on: `false`, `0`, `no` or `off` is the weakening. */
const VERIFY_SETTING =
  /^(strict-ssl|ssl-?verify|verify-?ssl|enable-strict-ssl|tls-?verify|check-revoke|reject-unauthorized|node-tls-reject-unauthorized|pythonhttpsverify)$/i;
/** Switches whose on state is the weakening (`GIT_SSL_NO_VERIFY=1`). */
const NO_VERIFY_SETTING = /^(git-)?ssl-no-?verify$|^insecure(-skip-tls-verify)?$/i;
/** Settings whose value names what is trusted without the usual check: setting one is the act. */
const TRUST_SETTING =
  /^(trusted-host|ca|cafile|ca-file|ca-bundle|ca-certs?|ssl-?ca-?info|cainfo|git-ssl-cainfo|requests-ca-bundle|curl-ca-bundle|ssl-cert-file|node-extra-ca-certs|insecure-registr(y|ies))$/i;
/** Environment variables that configure a downloader; other names are not settings. */
const ENVIRONMENT_SETTING =
  /^(NODE_TLS_REJECT_UNAUTHORIZED|NODE_EXTRA_CA_CERTS|PYTHONHTTPSVERIFY|GIT_SSL_NO_VERIFY|GIT_SSL_CAINFO|REQUESTS_CA_BUNDLE|CURL_CA_BUNDLE|SSL_CERT_FILE|(npm|yarn|pnpm|bun)_config_\w+|(PIP|UV|YARN|POETRY|CONDA)_\w+|GO(SUMDB|NOSUMDB|NOSUMCHECK|PRIVATE|INSECURE|FLAGS|PROXY))$/i;
const OFF = /^(false|0|no|off|disabled?)$/i;
/** Values that restore the default rather than trust something new. */
const DEFAULT_VALUE = /^(|null|undefined|true|1|yes|on)$/i;

/**
 * The setting's own name, dashed: the last part of a dotted key (`http.sslVerify`,
 * `global.trusted-host`, yarn's `enableStrictSsl`) without option dashes or a tool's environment prefix
 * (`npm_config_strict_ssl`, `PIP_TRUSTED_HOST`).
 */
function settingName(key: string): string {
  const bare = key
    .replace(/^-+/, '')
    .replace(/^(npm|yarn|pnpm|bun)_config_|^(pip|uv|yarn|poetry|conda)_/i, '')
    .replace(/_/g, '-')
    .replace(/([a-z])([A-Z])/g, '$1-$2');
  return bare.slice(bare.lastIndexOf('.') + 1);
}

function unquote(value: string): string {
  return value.trim().replace(/^(['"])(.*)\1$/, '$2');
}

/**
 * Go's module settings. The checksum database makes every download match what everyone else got,
 * so switching it off or exempting every module from it (`GONOSUMDB=*`, `GOPRIVATE=github.com`) is
 * the same act as switching off server verification; `GOINSECURE` fetches over plain HTTP; a proxy
 * over plain HTTP can serve anything; `GOFLAGS=-insecure` is the old spelling of the same.
 */
const GO_MODULE_SETTING = /^GO(SUMDB|NOSUMDB|NOSUMCHECK|PRIVATE|INSECURE|FLAGS|PROXY)$/i;
/** Patterns that exempt every module, or every module of a public code host, from the check. */
const GO_EXEMPTS_PUBLIC =
  /(^|,)\s*(\*|\*\.\*|\*\/\*|(\*\.)?(github\.com|gitlab\.com|bitbucket\.org|golang\.org|go\.googlesource\.com|gopkg\.in)\/?\*?)\s*(,|$)/i;

function weakensGoModuleTrust(name: string, setting: string): boolean {
  switch (name.toUpperCase()) {
    case 'GOSUMDB':
      return OFF.test(setting);
    case 'GOINSECURE':
      return setting !== '';
    case 'GOFLAGS':
      return /(^|\s)-insecure\b/.test(setting);
    case 'GOPROXY':
      return setting
        .split(/[,|]/)
        .some((entry) => /^http:\/\//i.test(entry) && !/^http:\/\/(localhost|127\.|\[::1\])/i.test(entry));
    default:
      return GO_EXEMPTS_PUBLIC.test(setting);
  }
}

/** Whether setting `key` to `value` weakens the check of download servers. */
export function weakensTransportTrust(key: string, value: string): boolean {
  const setting = unquote(value);
  if (GO_MODULE_SETTING.test(key)) return weakensGoModuleTrust(key, setting);
  const name = settingName(key);
  if (VERIFY_SETTING.test(name)) return OFF.test(setting);
  if (NO_VERIFY_SETTING.test(name)) return setting !== '' && !OFF.test(setting);
  if (TRUST_SETTING.test(name)) return !DEFAULT_VALUE.test(setting);
  return false;
}

/** Whether an environment assignment `name=value` weakens the check of download servers. */
export function environmentWeakensTransportTrust(name: string, value: string): boolean {
  return ENVIRONMENT_SETTING.test(name) && weakensTransportTrust(name, value);
}

/** Options that take a value and, given one, weaken the check (`--trusted-host HOST`). */
export const TRUST_OPTION = /^--(trusted-host|cafile|ca-file|insecure-registry)$/;

/** Switches that turn the check off for one command (`--no-strict-ssl`, `--insecure-skip-tls-verify`). */
export function isTransportTrustSwitch(arg: string): boolean {
  if (/^--(no-strict-ssl|no-verify-ssl|disable-tls|insecure-skip-tls-verify)$/i.test(arg)) return true;
  const assignment = /^--([\w-]+)=(.*)$/.exec(arg);
  return assignment !== null && weakensTransportTrust(assignment[1]!, assignment[2]!);
}

export function transportTrustFinding(where: string): Finding {
  return { code: `supply.transport-trust:${where}`, deny: RISK.askHigh, onTask: 0.2 };
}
