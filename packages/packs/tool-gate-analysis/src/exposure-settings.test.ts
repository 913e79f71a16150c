import { describe, expect, it } from 'vitest';
import { analyseToolCallSync } from './analyse-tool-call.js';
import { containerSpecHostAccess } from './container-host-access.js';
import { judgeExposureSettings } from './exposure-settings.js';

const codes = (inserted: string, removed = '', path = 'infra/main.tf') =>
  judgeExposureSettings(inserted, removed, path).map((finding) => finding.code);

function edit(file_path: string, old_string: string, new_string: string) {
  return analyseToolCallSync({
    tool: 'Edit',
    arguments: { file_path, old_string, new_string },
    grant: ['Edit'],
    task: 'Fix the failing deploy.',
    cwd: '/home/dev/project',
  }).answers.disposition.choice;
}

describe('settings that open what was closed', () => {
  it('the whole internet as a source range, in any infrastructure dialect', () => {
    expect(codes('ingress { cidr_blocks = ["::/0"] }')).toContain('content.opens:open-to-internet');
    expect(codes('CidrIp: 0.0.0.0/0\n', '', 'stack.yaml')).toContain('content.opens:open-to-internet');
    expect(codes('cidr_blocks = ["10.0.0.0/16"]')).toEqual([]);
  });

  it('storage anyone may read, and public access switched on', () => {
    expect(codes('predefined_acl = "publicRead"\nrole = "READER"\nentity = "allUsers"')).toContain(
      'content.opens:public-storage',
    );
    expect(codes('map_public_ip_on_launch = true')).toContain('content.opens:public-access-on');
    expect(codes('map_public_ip_on_launch = false')).toEqual([]);
  });

  it('a setting named for public reach switched on, read as words whatever the spelling', () => {
    expect(
      codes("publicNetworkAccess: 'Enabled'", "publicNetworkAccess: 'Disabled'", 'infra/db.bicep'),
    ).toContain('content.opens:public-access-on');
    expect(codes('public_endpoint_enabled = true', 'public_endpoint_enabled = false')).toContain(
      'content.opens:public-access-on',
    );
    expect(codes('PublicIpAddress: Enabled', '', 'stack.yaml')).toContain('content.opens:public-access-on');
    // A name that blocks or restricts the public is a protection switched on.
    expect(codes('block_public_access = true')).toEqual([]);
    expect(codes('restrict_public_network = true')).toEqual([]);
  });

  it('a security switch turned to its permissive side, read as words whatever the product', () => {
    expect(codes('default allow := true', 'default allow := false', 'policy/authz.rego')).toContain(
      'content.opens:security-switch-permissive',
    );
    expect(codes('enforce_admins = false', 'enforce_admins = true')).toContain(
      'content.opens:security-switch-permissive',
    );
    expect(codes('"automerge": true', '"automerge": false', 'renovate.json')).toContain(
      'content.opens:security-switch-permissive',
    );
    expect(codes('allowAnyOrigin: true', 'allowAnyOrigin: false', 'src/server.ts')).toContain(
      'content.opens:security-switch-permissive',
    );
    // A loosening word about nothing security-related is an ordinary option.
    expect(codes('"allowJs": true', '"allowJs": false', 'tsconfig.json')).toEqual([]);
    expect(codes('enforce_admins = true', 'enforce_admins = false')).toEqual([]);
  });

  it('switches that loosen whatever they touch, and isolation switched off', () => {
    expect(
      codes(
        '<application android:allowBackup="false" android:usesCleartextTraffic="true">',
        '<application android:allowBackup="false">',
        'AndroidManifest.xml',
      ),
    ).toContain('content.opens:security-switch-permissive');
    expect(
      codes(
        '<service android:name=".SyncService" android:exported="true"',
        '<service android:name=".SyncService" android:exported="false"',
        'AndroidManifest.xml',
      ),
    ).toContain('content.opens:security-switch-permissive');
    expect(codes('sandbox: false', 'sandbox: true', 'electron/main.ts')).toContain(
      'content.opens:security-switch-permissive',
    );
    expect(
      codes(
        '<application android:allowBackup="false" android:label="Shop">',
        '<application android:allowBackup="false">',
        'AndroidManifest.xml',
      ),
    ).toEqual([]);
  });

  it("a database's own row access control switched off or made to admit every row", () => {
    expect(codes('ALTER TABLE invoices DISABLE ROW LEVEL SECURITY;', '', 'db/migrate/1.sql')).toContain(
      'content.opens:row-security-off',
    );
    expect(codes('CREATE POLICY p ON invoices FOR SELECT USING (true);', '', 'db/migrate/1.sql')).toContain(
      'content.opens:rule-grants-everyone',
    );
    expect(
      codes(
        'CREATE POLICY p ON invoices FOR SELECT USING (tenant_id = current_tenant());',
        '',
        'db/migrate/1.sql',
      ),
    ).toEqual([]);
  });

  it('a setting kept from production made a constant, and a secret from outside made a literal', () => {
    expect(
      codes('  playground: true,', "  playground: process.env.NODE_ENV !== 'production',", 'src/server.ts'),
    ).toContain('content.opens:production-guard-removed:playground');
    expect(
      codes("SESSION_SECRET = 'changeme'", "SESSION_SECRET = os.getenv('SESSION_SECRET')", 'app/config.py'),
    ).toContain('content.opens:secret-made-constant:SESSION_SECRET');
    expect(
      codes(
        "SESSION_SECRET = os.environ['SESSION_SECRET']",
        "SESSION_SECRET = os.getenv('SESSION_SECRET')",
        'app/config.py',
      ),
    ).toEqual([]);
    // A label that differs by environment is not a switch.
    expect(
      codes(
        "  title: 'Shop',",
        "  title: process.env.NODE_ENV === 'production' ? 'Shop' : 'Shop (dev)',",
        'src/app.ts',
      ),
    ).toEqual([]);
  });

  it('sudo for everything without a password, and a network rule that matches everything', () => {
    expect(
      codes('%dev ALL=(ALL) NOPASSWD: ALL', '%dev ALL=(ALL) /usr/bin/systemctl restart app', 'sudoers.d/dev'),
    ).toContain('content.opens:sudo-everything-without-password');
    expect(
      codes('  ingress:\n    - {}', '  ingress:\n    - from:\n        - podSelector: {}', 'k8s/np.yaml'),
    ).toContain('content.opens:network-rule-allows-all');
    // An empty podSelector at the top selects what the policy protects (a default deny).
    expect(codes('spec:\n  podSelector: {}\n  policyTypes: [Ingress]', '', 'k8s/np.yaml')).toEqual([]);
  });

  it('permission to do anything on anything', () => {
    expect(codes('{"Action": ["*"], "Resource": ["*"]}', '', 'policy.json')).toContain(
      'content.opens:any-action-on-any-resource',
    );
    expect(codes('- apiGroups: ["*"]\n  resources: ["*"]\n  verbs: ["*"]\n', '', 'rbac.yaml')).toContain(
      'content.opens:every-verb-on-every-resource',
    );
    expect(codes('roleRef:\n  name: cluster-admin\n', '', 'binding.yaml')).toContain(
      'content.opens:owner-role',
    );
    expect(
      codes('{"Action": ["s3:GetObject"], "Resource": ["arn:aws:s3:::b/*"]}', '', 'policy.json'),
    ).toEqual([]);
  });

  it('protections, transport security and authentication switched off', () => {
    expect(codes('  prevent_destroy = false')).toContain('content.opens:protection-off');
    expect(codes('  enable_key_rotation = false')).toContain('content.opens:protection-off');
    expect(codes('  enable_key_rotation = true')).toEqual([]);
    expect(codes('spec:\n  enforcementAction: dryrun')).toContain('content.opens:admission-not-enforced');
    expect(codes('spec:\n  validationFailureAction: Audit')).toContain(
      'content.opens:admission-not-enforced',
    );
    expect(codes('\t<key>NSAllowsArbitraryLoads</key>\n\t<true/>')).toContain(
      'content.opens:cleartext-allowed',
    );
    expect(codes("        Action:\n          - s3:*\n        Resource: '*'")).toContain(
      'content.opens:service-wide-action-on-any-resource',
    );
    expect(codes('        Action:\n          - s3:GetObject\n        Resource: arn:aws:s3:::b/*')).toEqual(
      [],
    );
    expect(codes('SECURE_SSL_REDIRECT = False', '', 'settings/prod.py')).toContain(
      'content.opens:transport-security-off',
    );
    expect(codes('TrustServerCertificate=True;', '', 'appsettings.json')).toContain(
      'content.opens:transport-security-off',
    );
    expect(codes('allow_anonymous true\n', '', 'mosquitto.conf')).toContain(
      'content.opens:authentication-off',
    );
    expect(codes('  deletion_protection = true')).toEqual([]);
  });

  it('only what the edit introduces counts', () => {
    const open = 'cidr_blocks = ["0.0.0.0/0"]\nport = 443';
    expect(codes('cidr_blocks = ["0.0.0.0/0"]\nport = 8443', open)).toEqual([]);
  });

  it('a live key written into a file, but not into a test fixture', () => {
    const key = 'AKIA' + 'Z7Q2M4X9R1T8V6WY';
    expect(codes(`aws_access_key_id = "${key}"`, '', 'deploy/creds.ini')).toContain(
      'content.writes-secret-literal:aws-access-key-id',
    );
    expect(codes(`const key = "${key}";`, '', 'test/fixtures/aws.ts')).toEqual([]);
  });

  it('prose that names a setting does not set it', () => {
    expect(edit('docs/deploy.md', '## Ports', '## Ports\n\nNever allow 0.0.0.0/0 on port 22.')).toBe('allow');
    expect(edit('infra/sg.tf', 'cidr_blocks = ["10.0.0.0/8"]', 'cidr_blocks = ["0.0.0.0/0"]')).not.toBe(
      'allow',
    );
  });
});

describe('a container given the host, in compose and Kubernetes words', () => {
  it('reads both dialects the same way', () => {
    expect(containerSpecHostAccess('    pid: host\n')).toBe('host-namespace');
    expect(containerSpecHostAccess('      hostIPC: true\n')).toBe('host-namespace');
    expect(containerSpecHostAccess('          allowPrivilegeEscalation: true\n')).toBe(
      'privilege-escalation',
    );
    expect(containerSpecHostAccess('        hostPath:\n          path: /etc\n')).toBe('mounts:/etc');
    expect(containerSpecHostAccess('        hostPath:\n          path: /srv/cache\n')).toBeUndefined();
    expect(containerSpecHostAccess('          capabilities:\n            add: ["SYS_PTRACE"]\n')).toBe(
      'capabilities',
    );
    expect(containerSpecHostAccess('          capabilities:\n            drop: ["ALL"]\n')).toBeUndefined();
  });
});

describe('a build sent to another machine', () => {
  it('a remote cache or executor elsewhere is asked, and denied when it carries a secret', () => {
    expect(codes('build --remote_executor=grpcs://rbe.example.org\n', '', '.bazelrc')).toContain(
      'content.build-sent-to:rbe.example.org',
    );
    expect(
      codes(
        'build --repo_env=NPM_TOKEN\nbuild --bes_backend=grpc://bes.example.io\n',
        '',
        'tools/ci.bazelrc',
      ),
    ).toContain('content.build-sent-to:bes.example.io:with-NPM_TOKEN');
    expect(codes('build --remote_cache=http://localhost:9090\n', '', '.bazelrc')).toEqual([]);
    expect(codes('build --action_env=PATH\n', '', '.bazelrc')).toEqual([]);
  });
});

describe("an application's own protections moved to their permissive side", () => {
  it('weaker hashing and longer-lived tokens, by the numbers', () => {
    expect(codes('PBKDF2_ITERATIONS = 1000', 'PBKDF2_ITERATIONS = 600000', 'app/settings.py')).toContain(
      'content.opens:work-factor-lowered',
    );
    expect(codes("maxAge: '400d'", "maxAge: '1d'", 'src/cookie.ts')).toContain(
      'content.opens:lifetime-extended',
    );
    expect(codes("maxAge: '2d'", "maxAge: '1d'", 'src/cookie.ts')).toEqual([]);
    expect(codes('saltRounds: 14', 'saltRounds: 12', 'src/hash.ts')).toEqual([]);
  });

  it('headers, scripts, cookies, proxies, debug mode, schemas and size limits', () => {
    expect(codes('helmet({ hsts: false })', '', 'src/app.ts')).toContain(
      'content.opens:security-headers-off',
    );
    expect(codes(`"default-src 'self'; script-src 'self' 'unsafe-eval'"`, '', 'csp.ts')).toContain(
      'content.opens:csp-allows-any-script',
    );
    expect(codes("SESSION_COOKIE_SAMESITE = 'None'", '', 'settings.py')).toContain(
      'content.opens:cookie-sent-cross-site',
    );
    expect(codes('forwarded_allow_ips = "*"', '', 'gunicorn.conf.py')).toContain(
      'content.opens:every-proxy-trusted',
    );
    expect(codes('APP_DEBUG=true\n', '', 'deploy/.env.production')).toContain('content.opens:debug-mode-on');
    expect(codes('const Body = z.object({ a: z.string() }).passthrough();', '', 'src/body.ts')).toContain(
      'content.opens:input-schema-loosened',
    );
    expect(codes('MAX_CONTENT_LENGTH = None', '', 'app/config.py')).toContain(
      'content.opens:size-limit-removed',
    );
    expect(codes(`"script-src 'self' https://cdn.example.com"`, '', 'csp.ts')).toEqual([]);
  });
});

describe('credentials written into files, beyond token shapes', () => {
  it('a connection string with its password, or a secret-named field with a generated value', () => {
    expect(
      codes('DATABASE_URL=mysql://app:Xk29fLq83mZ@db.internal:3306/shop\n', '', 'deploy/app.env'),
    ).toContain('content.writes-secret-literal:connection-string-password');
    expect(codes('{ "client_secret": "q8ZrT2mYv9LpX4cW7nB1sD6f" }', '', 'config/oauth.json')).toContain(
      'content.writes-secret-literal:secret-named-value',
    );
    // A reference to a variable (`${DB_PASSWORD}`, spelt from parts so it is not read as a template).
    const reference = `$${'{'}DB_PASSWORD}`;
    expect(codes(`DATABASE_URL=postgres://app:${reference}@db/shop\n`, '', 'deploy/app.env')).toEqual([]);
    expect(codes('{ "client_secret": "your-client-secret-goes-here" }', '', 'config/oauth.json')).toEqual([]);
    expect(codes('{ "client_secret": "q8ZrT2mYv9LpX4cW7nB1sD6f" }', '', 'config/oauth.example.json')).toEqual(
      [],
    );
  });
});

describe('batch 68: limits, escaping, code from elsewhere, refusal rules', () => {
  it('a limit written with digit separators or an exponent is read at its value', () => {
    const before = "app.register(rateLimit, { max: 100, timeWindow: '1 minute' });";
    expect(
      codes("app.register(rateLimit, { max: 1_000_000, timeWindow: '1 minute' });", before, 'src/server.ts'),
    ).toContain('content.opens:abuse-limit-raised');
    expect(
      codes("app.register(rateLimit, { max: 1e6, timeWindow: '1 minute' });", before, 'src/server.ts'),
    ).toContain('content.opens:abuse-limit-raised');
    // Twice the limit is a tuning, not a removal.
    expect(
      codes("app.register(rateLimit, { max: 2_00, timeWindow: '1 minute' });", before, 'src/server.ts'),
    ).toEqual([]);
  });

  it('output escaping and sanitising switched off', () => {
    expect(
      codes(
        "env = Environment(loader=FileSystemLoader('t'), autoescape=False)",
        "env = Environment(loader=FileSystemLoader('t'), autoescape=True)",
        'app/templates.py',
      ),
    ).toContain('content.opens:security-switch-permissive');
    expect(
      codes('marked.setOptions({ sanitize: false })', 'marked.setOptions({ sanitize: true })', 'src/md.ts'),
    ).toContain('content.opens:security-switch-permissive');
    expect(
      codes(
        "env = Environment(loader=FileSystemLoader('templates'), autoescape=True)",
        "env = Environment(loader=FileSystemLoader('t'), autoescape=True)",
        'app/templates.py',
      ),
    ).toEqual([]);
  });

  it('a switch that runs code published elsewhere, turned on', () => {
    expect(
      codes(
        'm = AutoModel.from_pretrained(ID, trust_remote_code=True)',
        'm = AutoModel.from_pretrained(ID)',
        'ml/load.py',
      ),
    ).toContain('content.opens:security-switch-permissive');
    expect(codes('data = np.load(path, allow_pickle=True)', 'data = np.load(path)', 'ml/data.py')).toContain(
      'content.opens:security-switch-permissive',
    );
    expect(
      codes(
        'm = AutoModel.from_pretrained(ID, trust_remote_code=False)',
        'm = AutoModel.from_pretrained(ID)',
        'ml/load.py',
      ),
    ).toEqual([]);
    expect(
      codes(
        'm = AutoModel.from_pretrained(ID, use_safetensors=True)',
        'm = AutoModel.from_pretrained(ID)',
        'ml/load.py',
      ),
    ).toEqual([]);
  });

  it('a refusal rule taken out of configuration, in any server or policy dialect', () => {
    const nginx = '    location ~ /\\.git {\n        deny all;\n    }\n';
    expect(codes('', nginx, 'deploy/nginx/site.conf')).toContain('content.opens:refusal-rule-removed');
    expect(codes('', '<Files ".env">\n  Require all denied\n</Files>\n', '.htaccess')).toContain(
      'content.opens:refusal-rule-removed',
    );
    expect(codes('', '{ "Effect": "Deny", "Action": "s3:DeleteBucket" }', 'iam/policy.json')).toContain(
      'content.opens:refusal-rule-removed',
    );
    // A refusal kept while the block around it changes is not removed.
    expect(
      codes('    location ~ /\\.(git|svn) {\n        deny all;\n    }\n', nginx, 'deploy/nginx/site.conf'),
    ).toEqual([]);
    expect(codes('    gzip on;\n    gzip_types text/css;', '    gzip on;', 'deploy/nginx/site.conf')).toEqual(
      [],
    );
  });
});

describe('batch 69: framing, grants', () => {
  it('a directive that decides what runs or who frames the page, given every source', () => {
    expect(codes(`"frame-ancestors *"`, `"frame-ancestors 'none'"`, 'src/server/headers.ts')).toContain(
      'content.opens:csp-directive-any-source',
    );
    expect(codes(`"connect-src 'self' *"`, `"connect-src 'self'"`, 'src/csp.ts')).toContain(
      'content.opens:csp-directive-any-source',
    );
    expect(
      codes(`"frame-ancestors https://portal.partner.example"`, `"frame-ancestors 'none'"`, 'src/csp.ts'),
    ).toEqual([]);
    expect(codes(`"img-src 'self' *"`, `"img-src 'self'"`, 'src/csp.ts')).toEqual([]);
  });

  it('a database grant to every role', () => {
    expect(codes('GRANT ALL ON ALL TABLES IN SCHEMA public TO PUBLIC;', '', 'db/grants.sql')).toContain(
      'content.opens:grant-to-everyone',
    );
    expect(codes('GRANT SELECT ON reporting.daily_totals TO analyst;', '', 'db/grants.sql')).toEqual([]);
    const binding = (subject: string) =>
      `kind: ClusterRoleBinding\nroleRef:\n  kind: ClusterRole\n  name: view\nsubjects:\n- kind: ${subject}\n`;
    expect(codes(binding('Group\n  name: system:unauthenticated'), '', 'deploy/rbac.yaml')).toContain(
      'content.opens:grant-to-everyone',
    );
    expect(codes(binding('ServiceAccount\n  name: dashboard'), '', 'deploy/rbac.yaml')).toEqual([]);
  });

  it("the container runtime's socket given to a container", () => {
    expect(
      codes(
        '        - name: docker\n          mountPath: /var/run/docker.sock',
        '',
        'deploy/k8s/builder.yaml',
      ),
    ).toContain('content.opens:container-runtime-socket');
    expect(codes('      - /var/run/docker.sock:/var/run/docker.sock', '', 'docker-compose.yml')).toContain(
      'content.opens:container-runtime-socket',
    );
    expect(
      codes('        - name: cache\n          mountPath: /cache', '', 'deploy/k8s/builder.yaml'),
    ).toEqual([]);
  });
});

describe('batch 70: every port, an image run as root', () => {
  it('one rule opening every port, in any dialect', () => {
    expect(
      codes(
        '  from_port   = 0\n  to_port     = 65535',
        '  from_port   = 443\n  to_port     = 443',
        'terraform/sg.tf',
      ),
    ).toContain('content.opens:every-port');
    expect(codes('"FromPort": 0, "ToPort": 65535', '"FromPort": 443, "ToPort": 443', 'stack.json')).toContain(
      'content.opens:every-port',
    );
    expect(
      codes(
        '  from_port   = 8000\n  to_port     = 8100',
        '  from_port   = 443\n  to_port     = 443',
        'terraform/sg.tf',
      ),
    ).toEqual([]);
  });

  it('an image that loses its unprivileged user, or names root', () => {
    expect(
      codes('CMD ["node", "server.js"]', 'USER node\nCMD ["node", "server.js"]', 'Dockerfile'),
    ).toContain('content.opens:image-runs-as-root');
    expect(codes('USER root\nRUN apt-get update', '', 'build/Dockerfile.dev')).toContain(
      'content.opens:image-runs-as-root',
    );
    expect(
      codes(
        'USER node\nENV PORT=8080\nCMD ["node", "server.js"]',
        'USER node\nCMD ["node", "server.js"]',
        'Dockerfile',
      ),
    ).toEqual([]);
  });
});

describe('batch 71: any host, the project served, CI tokens that write, every interface behind a scheme', () => {
  it('a host or origin list given a pattern matching every host', () => {
    expect(
      codes(
        "remotePatterns: [{ protocol: 'https', hostname: '**' }],",
        "remotePatterns: [{ hostname: 'img.example' }],",
        'next.config.js',
      ),
    ).toContain('content.opens:any-host');
    expect(codes("devServer: { allowedHosts: 'all' }", '', 'webpack.config.js')).toContain(
      'content.opens:any-host',
    );
    expect(codes("remotePatterns: [{ hostname: 'cdn.supplier.example' }],", '', 'next.config.js')).toEqual(
      [],
    );
  });

  it('a static server rooted at the project', () => {
    expect(codes("app.use('/static', express.static(process.cwd()));", '', 'src/app.ts')).toContain(
      'content.opens:static-root-is-project',
    );
    expect(
      codes("app.use('/static', express.static(path.join(__dirname, 'public')));", '', 'src/app.ts'),
    ).toEqual([]);
  });

  it("a CI job's token given write access", () => {
    expect(
      codes(
        'permissions:\n  contents: write\n',
        'permissions:\n  contents: read\n',
        '.github/workflows/pr.yml',
      ),
    ).toContain('content.opens:ci-token-write');
    expect(
      codes(
        'permissions:\n  contents: read\n  checks: read\n',
        'permissions:\n  contents: read\n',
        '.github/workflows/pr.yml',
      ),
    ).toEqual([]);
  });

  it('a listening address moved from loopback to every interface, written with a scheme', () => {
    expect(codes("bind 'tcp://0.0.0.0:3000'", "bind 'tcp://127.0.0.1:3000'", 'config/puma.rb')).toContain(
      'content.opens:listens-on-every-interface',
    );
    expect(codes("bind 'tcp://127.0.0.1:3001'", "bind 'tcp://127.0.0.1:3000'", 'config/puma.rb')).toEqual([]);
  });
});

describe('batch 72: redirects to any host, parent-domain cookies, expiries removed', () => {
  it('each is introduced by the edit, and its routine twin is not', () => {
    expect(
      codes(
        'redirect_uris:\n  - https://*',
        'redirect_uris:\n  - https://app.example.com/cb',
        'config/oauth.yaml',
      ),
    ).toContain('content.opens:redirect-to-any-host');
    expect(
      codes(
        'redirect_uris:\n  - https://*.preview.example.com/cb',
        'redirect_uris:\n  - https://app.example.com/cb',
        'config/oauth.yaml',
      ),
    ).toEqual([]);
    expect(
      codes(
        "res.cookie('sid', sid, { domain: '.relay.example' });",
        "res.cookie('sid', sid, { domain: 'app.relay.example' });",
        'src/c.ts',
      ),
    ).toContain('content.opens:cookie-domain-widened');
    expect(codes("res.cookie('sid', sid, { domain: 'docs.relay.example' });", '', 'src/c.ts')).toEqual([]);
    expect(
      codes('    expires_at = None', '    expires_at = now() + timedelta(minutes=30)', 'src/auth/reset.py'),
    ).toContain('content.opens:expiry-removed');
    expect(
      codes(
        '    expires_at = now() + timedelta(minutes=60)',
        '    expires_at = now() + timedelta(minutes=30)',
        'src/auth/reset.py',
      ),
    ).toEqual([]);
  });
});

describe('batch 73: where collected data is sent', () => {
  it('a reporting or collecting destination pointed at a new host', () => {
    expect(
      codes(
        "  reportUri: 'https://csp-collector.example.net/r',",
        "  reportUri: '/csp-report',",
        'src/server/csp.ts',
      ),
    ).toContain('content.opens:sends-to-new-host:csp-collector.example.net');
    expect(
      codes(
        "  reportUri: 'https://csp.harbor.example/r2',",
        "  reportUri: 'https://csp.harbor.example/r',",
        'src/server/csp.ts',
      ),
    ).toEqual([]);
    expect(codes("  otlp_endpoint: 'http://localhost:4318'", '', 'config/telemetry.yaml')).toEqual([]);
  });
});

describe('batch 74: pod security, personal data', () => {
  it('a namespace admitting privileged pods, and personal data switched on to leave', () => {
    expect(
      codes(
        '    pod-security.kubernetes.io/enforce: privileged',
        '    pod-security.kubernetes.io/enforce: restricted',
        'k8s/ns.yaml',
      ),
    ).toContain('content.opens:pod-security-privileged');
    expect(
      codes(
        '    pod-security.kubernetes.io/enforce: baseline',
        '    pod-security.kubernetes.io/enforce: restricted',
        'k8s/ns.yaml',
      ),
    ).toEqual([]);
    expect(
      codes('sentry_sdk.init(dsn=DSN, send_default_pii=True)', 'sentry_sdk.init(dsn=DSN)', 'app/obs.py'),
    ).toContain('content.opens:security-switch-permissive');
    expect(codes('scrubber = Scrubber(redact_pii=True)', 'scrubber = Scrubber()', 'app/obs.py')).toEqual([]);
  });
});
