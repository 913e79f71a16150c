/**
 * The redaction corpus: one credential of every shape `redact` knows, in the text it typically
 * sits in. Shared by the redaction tests here and by every test that must show a secret does not
 * leave the machine (the gate's team reports, issue 32).
 *
 * Fake credentials of the right shape, built at run time so that no secret-shaped literal sits in the
 * repository (and secret scanners stay quiet). Deterministic: the same call gives the same text.
 */
export function fake(
  length: number,
  alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
): string {
  let seed = length * 7919;
  let text = '';
  for (let index = 0; index < length; index += 1) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    text += alphabet[seed % alphabet.length];
  }
  return text;
}
const upperDigits = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const hex = '0123456789abcdef';
const base64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

const pemBody = `${fake(64, base64)}\n${fake(64, base64)}\n${fake(20, base64)}==`;

/** [secret shape, text around it, the secret inside it, the marker kind expected]. */
export const SECRET_CORPUS: ReadonlyArray<[string, string, string, string]> = [
  [
    'PEM private key',
    'key:\n{s}\nrest',
    `-----BEGIN RSA PRIVATE KEY-----\n${pemBody}\n-----END RSA PRIVATE KEY-----`,
    'private-key',
  ],
  [
    'OpenSSH private key',
    '{s}',
    `-----BEGIN OPENSSH PRIVATE KEY-----\n${pemBody}\n-----END OPENSSH PRIVATE KEY-----`,
    'private-key',
  ],
  ['private key cut short', 'diff:\n+{s}', `-----BEGIN PRIVATE KEY-----\n${pemBody}`, 'private-key'],
  [
    'GCP service account key',
    '{"type": "service_account", "private_key": "{s}\\n"}',
    `-----BEGIN PRIVATE KEY-----\\n${fake(64, base64)}\\n-----END PRIVATE KEY-----`,
    'private-key',
  ],
  ['Authorization Bearer header', 'Authorization: Bearer {s}', fake(40), 'authorization'],
  [
    'Authorization Basic in curl',
    `curl -H "Authorization: Basic {s}" https://x.test`,
    `${fake(24, base64)}==`,
    'authorization',
  ],
  ['Proxy-Authorization', 'Proxy-Authorization: token {s}', fake(30), 'authorization'],
  ['bearer token in a log', 'sent bearer {s} upstream', `${fake(20)}.${fake(12)}`, 'bearer-token'],
  ['AWS access key id', 'aws_access_key_id = {s}', `AKIA${fake(16, upperDigits)}`, 'aws-access-key-id'],
  ['AWS secret access key', 'aws_secret_access_key = {s}', fake(40, base64), 'aws-secret-access-key'],
  ['AWS secret in JSON', '{"SecretAccessKey": "{s}"}', fake(40, base64), 'aws-secret-access-key'],
  ['Google API key', 'const url = `https://maps.test/?key={s}`', `AIza${fake(35)}`, 'google-api-key'],
  ['Google OAuth client secret', 'client: {s}', `GOCSPX-${fake(28)}`, 'google-oauth-client-secret'],
  ['Google OAuth token', 'token {s}', `ya29.${fake(60)}`, 'google-oauth-token'],
  [
    'Azure storage connection string',
    'DefaultEndpointsProtocol=https;AccountName=acct;AccountKey={s};EndpointSuffix=core.windows.net',
    `${fake(86, base64)}==`,
    'azure-connection-string',
  ],
  [
    'Azure service bus key',
    'Endpoint=sb://x.servicebus.windows.net/;SharedAccessKeyName=root;SharedAccessKey={s}',
    `${fake(43, base64)}=`,
    'azure-connection-string',
  ],
  [
    'Azure SAS signature',
    'https://acct.blob.core.windows.net/c/b?sv=2022-11-02&sp=r&sig={s}',
    `${fake(40)}%3D`,
    'azure-sas-signature',
  ],
  ['GitHub classic token', 'git clone https://{s}@github.com/o/r', `ghp_${fake(36)}`, 'github-token'],
  ['GitHub OAuth token', '{s}', `gho_${fake(36)}`, 'github-token'],
  ['GitHub app token', 'x-access-token:{s}', `ghs_${fake(36)}`, 'github-token'],
  ['GitHub user token', '{s}', `ghu_${fake(36)}`, 'github-token'],
  ['GitHub fine-grained token', 'token={s}', `github_pat_${fake(22)}_${fake(59)}`, 'github-token'],
  ['GitLab token', 'PRIVATE-TOKEN: {s}', `glpat-${fake(20)}`, 'gitlab-token'],
  ['Bitbucket app password', 'app password {s}', `ATBB${fake(32)}`, 'atlassian-token'],
  ['OpenAI project key', 'client = OpenAI(api_key={s})', `sk-proj-${fake(48)}_${fake(20)}`, 'openai-key'],
  ['OpenAI legacy key', 'key {s} here', `sk-${fake(20)}T3BlbkFJ${fake(20)}`, 'openai-key'],
  ['Anthropic key', 'x-api-key: {s}', `sk-ant-api03-${fake(93)}AA`, 'anthropic-key'],
  ['Hugging Face token', 'huggingface-cli login --token {s}', `hf_${fake(34)}`, 'huggingface-token'],
  [
    'Slack bot token',
    'SLACK {s}',
    `xoxb-${fake(12, '0123456789')}-${fake(13, '0123456789')}-${fake(24)}`,
    'slack-token',
  ],
  [
    'Slack webhook',
    'curl -X POST {s}',
    `https://hooks.slack.com/services/T${fake(8, upperDigits)}/B${fake(8, upperDigits)}/${fake(24)}`,
    'slack-webhook',
  ],
  ['Discord bot token', 'client.login("{s}")', `M${fake(25)}.${fake(6)}.${fake(38)}`, 'discord-token'],
  [
    'Discord webhook',
    'post to {s}',
    `https://discord.com/api/webhooks/${fake(18, '0123456789')}/${fake(68)}`,
    'discord-webhook',
  ],
  ['Stripe live key', 'Stripe({s})', `sk_live_${fake(24)}`, 'stripe-key'],
  ['Stripe restricted key', '{s}', `rk_live_${fake(24)}`, 'stripe-key'],
  ['Stripe webhook secret', 'endpointSecret = {s}', `whsec_${fake(32)}`, 'stripe-webhook-secret'],
  ['Twilio API key', 'twilio key {s}', `SK${fake(32, hex)}`, 'twilio-api-key'],
  ['SendGrid key', 'sgMail.setApiKey({s})', `SG.${fake(22)}.${fake(43)}`, 'sendgrid-key'],
  ['npm token', '//registry.npmjs.org/:_authToken {s}', `npm_${fake(36)}`, 'npm-token'],
  ['PyPI token', 'password = {s}', `pypi-AgEIcHlwaS5vcmc${fake(60)}`, 'pypi-token'],
  ['Docker Hub token', 'docker login -p {s}', `dckr_pat_${fake(27)}`, 'dockerhub-token'],
  ['JWT', 'cookie: session={s}; Path=/', `eyJhbGciOiJIUzI1NiJ9.eyJ${fake(40)}.${fake(43)}`, 'jwt'],
  ['password in a URL', 'DATABASE_URL is postgres://app:{s}@db.internal:5432/app', fake(16), 'url-password'],
  ['password in a redis URL', 'redis://default:{s}@cache:6379', fake(12), 'url-password'],
  ['JSON password field', '{"user": "app", "password": "{s}"}', 'correct horse battery', 'secret-field'],
  ['JSON client_secret field', '{"client_secret":"{s}"}', fake(30), 'secret-field'],
  ['YAML quoted token', 'auth:\n  token: "{s}"', fake(20), 'secret-field'],
  [
    'YAML plain password',
    'db:\n  password: {s}\n  port: 5432',
    `hunter${fake(3, '0123456789')}`,
    'secret-field',
  ],
  ['code constant', 'const STRIPE_WEBHOOK_SECRET = "{s}";', fake(20), 'secret-field'],
  ['Python keyword argument', 'connect(user="app", password="{s}")', 'tr0ub4dor&3', 'secret-field'],
  ['HTTP API key header', 'X-API-Key: {s}', `${fake(12)}-${fake(8)}`, 'secret-field'],
  ['env assignment', 'DB_PASSWORD={s} npm start', fake(14), 'secret-assignment'],
  ['export assignment', 'export OPENAI_API_KEY={s}', fake(20), 'secret-assignment'],
  ['export of a lower-case name', 'export session_secret={s}', fake(20), 'secret-assignment'],
  ['.env line', 'NODE_ENV=production\nJWT_SECRET={s}\nPORT=3000', fake(32), 'secret-assignment'],
  [
    'PGP private key block',
    'gpg export:\n{s}\n',
    `-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n${pemBody}\n-----END PGP PRIVATE KEY BLOCK-----`,
    'private-key',
  ],
  ['Atlassian API token', 'JIRA_API {s}', `ATATT3xFfGF0${fake(180)}`, 'atlassian-token'],
  ['Stripe test key', 'stripe.setKey("{s}")', `sk_test_${fake(24)}`, 'stripe-key'],
  ['GitLab deploy token', '{s}', `gldt-${fake(20)}`, 'gitlab-token'],
  ['Slack refresh token', 'refresh {s}', `xoxe-1-${fake(40)}`, 'slack-token'],
  ['curl user password', 'curl -u deploy:{s} https://x.test', fake(14), 'cli-password'],
  ['password flag', 'mysqldump --user app --password {s} app', fake(14), 'cli-password'],
  ['API key flag', 'tool --api-key={s} --verbose', fake(20), 'cli-password'],
  ['token in a query string', 'GET /v1/items?page=2&access_token={s}&sort=asc', fake(30), 'url-query-secret'],
  [
    'ADO.NET connection string',
    'Server=db;User Id=app;Password={s};',
    fake(14),
    'connection-string-password',
  ],
  ['password assignment in prose', 'db password={s} ok', 'hunter2', 'connection-string-password'],
];
