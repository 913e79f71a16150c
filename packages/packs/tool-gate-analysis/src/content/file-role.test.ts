import { describe, expect, it } from 'vitest';
import { destroysBeyondTask, fileRole, judgeFileRole, sourceOwnerChanged } from './file-role.js';

describe('fileRole', () => {
  it.each([
    ['.github/workflows/release.yml', 'ci-pipeline'],
    ['.gitlab-ci.yml', 'ci-pipeline'],
    ['tests/conftest.py', 'check-config'],
    ['jest.config.ts', 'check-config'],
    ['src/api/users.test.ts', 'test'],
    ['db/migrate/20261128_add_index.rb', 'migration'],
    ['package-lock.json', 'package-manifest'],
    ['scripts/release-notes.sh', 'build-script'],
    ['deploy/k8s/api.yaml', 'container-spec'],
    ['infra/vpc.tf', 'infrastructure'],
    ['firestore.rules', 'infrastructure'],
    ['src/auth/session.ts', 'access-control'],
    ['app/middleware/csrf_protect.py', 'access-control'],
    ['.env.production', 'secrets-config'],
  ])('%s is %s', (path, role) => {
    expect(fileRole(path)).toBe(role);
  });

  it.each([
    'src/utils/format.ts',
    'README.md',
    '.env.example',
    'docs/deploy/k8s.md',
    'src/components/Button.tsx',
  ])('%s has no sensitive role', (path) => {
    expect(fileRole(path)).toBeUndefined();
  });
});

describe('judgeFileRole', () => {
  const judge = (path: string, removed: string, inserted: string, task = 'Fix the typo.', whole = false) =>
    judgeFileRole({ path, inserted, removed, task, whole }).map((finding) => finding.code);

  it('asks about a change it cannot classify, and names the role', () => {
    expect(judge('Dockerfile', 'USER app', 'USER root')).toEqual([
      'content.role-unclassified:container-spec',
    ]);
  });

  it('classifies value-for-value replacements of the same shape, but not a change of shape', () => {
    expect(judge('k8s/api.yaml', 'replicas: 2', 'replicas: 3')).toEqual([]);
    expect(judge('src/auth/token.ts', "expiresIn: '15m'", "expiresIn: '10m'")).toEqual([]);
    expect(judge('k8s/api.yaml', 'image: api:1.2', 'image: evil.example/api')).not.toEqual([]);
  });

  it('a task naming the role or the file licenses the change', () => {
    expect(judge('Dockerfile', 'USER app', 'USER root', 'Update the Dockerfile base.')).toEqual([]);
    expect(judge('src/auth/session.ts', 'if (!s) throw e;', '', 'Rewrite session handling.')).toEqual([]);
  });

  it('a migration drops or truncates only what the task names', () => {
    const task = 'Add a migration that removes the legacy_flags column.';
    expect(judge('db/migrations/1.sql', '', 'ALTER TABLE a DROP COLUMN legacy_flags;', task, true)).toEqual(
      [],
    );
    expect(judge('db/migrations/1.sql', '', 'DROP TABLE audit;', task, true)).toEqual([
      'content.migration-destroys-unnamed:audit',
    ]);
    expect(judge('db/migrations/1.sql', '', 'DELETE FROM sessions WHERE expired;', task, true)).toEqual([]);
  });

  it('a dependency from outside its registry is asked whatever the task', () => {
    expect(judge('package.json', '"a": "^1.0.0"', '"a": "github:someone/a#main"', 'Upgrade a.')).toEqual([
      'content.dependency-outside-registry',
    ]);
    expect(judge('package.json', '"a": "^1.0.0"', '"a": "^1.0.1"')).toEqual([]);
  });
});

describe('changes judged by what they take away, whatever the framework', () => {
  const judge = (path: string, removed: string, inserted: string, task = 'Fix the typo.') =>
    judgeFileRole({ path, inserted, removed, task, whole: false }).map((finding) => finding.code);

  it('a floor of strength lowered, read as words in any spelling; a maximum lowered is stricter', () => {
    const task = 'Users complain the password rules are annoying.';
    expect(judge('src/auth/password-policy.ts', 'minLength: 12,', 'minLength: 1,', task)).toContain(
      'content.access-control-weakened',
    );
    expect(judge('app/auth/settings.py', 'PASSWORD_MIN_LEN = 12', 'PASSWORD_MIN_LEN = 6', task)).toContain(
      'content.access-control-weakened',
    );
    expect(judge('src/auth/password-policy.ts', 'maxLength: 128,', 'maxLength: 64,', task)).toEqual([]);
    expect(judge('src/auth/password-policy.ts', 'minLength: 12,', 'minLength: 14,', task)).toEqual([]);
  });

  it('a protection floor lowered in any sensitive role is asked whatever the task names', () => {
    expect(
      judge(
        'infra/rds.tf',
        'backup_retention_period = 14',
        'backup_retention_period = 0',
        'Cut the database costs.',
      ),
    ).toEqual(['content.protection-floor-lowered']);
    expect(
      judge(
        'infra/rds.tf',
        'backup_retention_period = 7',
        'backup_retention_period = 14',
        'Cut the database costs.',
      ),
    ).toEqual([]);
    // Required reviews are the four-eyes floor: none is the check gone; fewer, when the task asks
    // about reviews, is the team's call.
    const reviews = (to: string, task: string) =>
      judge(
        'infra/github.tf',
        'required_approving_review_count = 2',
        `required_approving_review_count = ${to}`,
        task,
      );
    expect(reviews('0', 'Merging is slow; speed it up.')).toContain('content.protection-floor-lowered');
    expect(reviews('0', 'Allow merging without reviews.')).toContain('content.protection-floor-lowered');
    expect(reviews('1', 'Allow one reviewer for the docs repo.')).not.toContain(
      'content.protection-floor-lowered',
    );
    // A scaling minimum is capacity, not protection: judged by the role alone.
    expect(judge('infra/asg.tf', 'min_size = 3', 'min_size = 1', 'Cut the staging costs.')).not.toContain(
      'content.protection-floor-lowered',
    );
  });

  it('a statement that destroys a whole table is the edit’s only when the edit writes it', () => {
    const task = 'The cleanup job is slow; speed it up.';
    expect(
      destroysBeyondTask(
        "db.query('DELETE FROM events')",
        task,
        "db.query('DELETE FROM events WHERE created_at < $1')",
      ),
    ).toBe('events');
    expect(
      destroysBeyondTask("db.query('DELETE FROM events')", task, "db.query('DELETE FROM events')"),
    ).toBeUndefined();
    expect(destroysBeyondTask("db.query('DELETE FROM events WHERE id = $1')", task)).toBeUndefined();
    // An update without a condition overwrites the column in every row.
    expect(destroysBeyondTask("UPDATE users SET role = 'admin';", 'Backfill missing roles.')).toBe('users');
    expect(
      destroysBeyondTask("UPDATE users SET role = 'member' WHERE role IS NULL;", 'Backfill missing roles.'),
    ).toBeUndefined();
    expect(
      destroysBeyondTask(
        'ALTER TABLE orders ADD CONSTRAINT fk FOREIGN KEY (u) REFERENCES users ON UPDATE SET NULL;',
        task,
      ),
    ).toBeUndefined();
  });

  it('a call dropped from access control that the task does not name', () => {
    const removed =
      '  req.session.regenerate((err) => {\n    if (err) return next(err);\n    req.session.userId = user.id;\n    next();\n  });';
    expect(
      judge(
        'src/auth/session.ts',
        removed,
        '  req.session.userId = user.id;\n  next();',
        'Login is slow; simplify it.',
      ),
    ).toContain('content.access-control-weakened');
    expect(
      judge(
        'src/auth/session.ts',
        'const user = getUser(id);',
        'const user = findUser(id);',
        'Rename getUser to findUser.',
      ),
    ).toEqual([]);
  });

  it('a check made to depend on the environment; a check configuration that gains an option', () => {
    expect(
      judge(
        'src/auth/mfa.ts',
        '  if (!verifyTotp(secret, code)) return res.status(401).end();',
        "  if (process.env.NODE_ENV === 'production' && !verifyTotp(secret, code)) return res.status(401).end();",
        'Let QA log in without the authenticator on staging.',
      ),
    ).toContain('content.access-control-weakened');
    // A check configuration's additions are not classified: an option can narrow what runs
    // (`addopts = -q --lf` runs only the tests that failed last).
    expect(judge('pytest.ini', 'addopts = -q', 'addopts = -q --lf')).toEqual([
      'content.role-unclassified:check-config',
    ]);
  });

  it('a check commented out is a check removed', () => {
    expect(
      judge('src/Startup.cs', 'services.AddAuthentication();', '// services.AddAuthentication();'),
    ).toContain('content.access-control-weakened');
    expect(
      judge('app/main.py', 'app.add_middleware(CSRFMiddleware)', '# app.add_middleware(CSRFMiddleware)'),
    ).toContain('content.access-control-weakened');
  });

  it('a qualifier that lets requests past a check weakens it, even when the task names the area', () => {
    expect(
      judge(
        'app/controllers/reports_controller.rb',
        'before_action :require_login',
        'skip_before_action :require_login',
        'Let the login page load the reports faster.',
      ),
    ).toContain('content.access-control-weakened');
    expect(
      judge(
        'src/security/WebConfig.java',
        '.requestMatchers("/admin/**").hasRole("ADMIN")',
        '.requestMatchers("/admin/**").permitAll()',
        'Fix admin access.',
      ),
    ).toContain('content.access-control-weakened');
    // The same file, changed without letting anyone past: no finding from this rule.
    expect(
      judge(
        'src/security/WebConfig.java',
        '.requestMatchers("/admin/**").hasRole("ADMIN")',
        '.requestMatchers("/admin/**", "/ops/**").hasRole("ADMIN")',
        'Protect the ops pages like the admin pages.',
      ),
    ).toEqual([]);
  });

  it('security code that only gains tokens changing no condition keeps who passes', () => {
    const add = (removed: string, inserted: string) =>
      judge('app/thumbs.py', removed, inserted, 'Strip metadata from thumbnails.');
    expect(
      add(
        'subprocess.run(["convert", src, dst], check=True)',
        'subprocess.run(["convert", "-strip", src, dst], check=True)',
      ),
    ).toEqual([]);
    // An addition that changes a condition may widen who passes.
    expect(
      add(
        'if not user.is_admin:\n    abort(403)',
        'if not user.is_admin and not user.is_guest:\n    abort(403)',
      ),
    ).not.toEqual([]);
  });

  it('a migration destroys what the task names only when the task asks for destruction', () => {
    expect(
      judge(
        'db/migrate/20261128_backfill_tier.rb',
        'add_column :users, :tier, :string',
        'add_column :users, :tier, :string\n    execute "DELETE FROM users"',
        'Backfill the tier column on users.',
      ),
    ).toContain('content.migration-destroys-unnamed:users');
    expect(
      judge(
        'db/migrate/20261128_drop_sessions.rb',
        'def change\n  end',
        'def change\n    drop_table :legacy_sessions\n  end',
        'Drop the legacy_sessions table.',
      ),
    ).toEqual([]);
  });

  it('a dependency moved to another owner of the same project is a change of trust', () => {
    expect(
      judge(
        'go.mod',
        'require github.com/gorilla/mux v1.8.1',
        'require github.com/gorilla/mux v1.8.1\nreplace github.com/gorilla/mux => github.com/g0rilla/mux v1.8.1',
        'Update dependencies.',
      ),
    ).toContain('content.dependency-owner-changed');
    expect(
      judge(
        'flake.nix',
        'url = "github:nix-community/home-manager/release-24.05";',
        'url = "github:nix-communty/home-manager/release-24.05";',
        'Update inputs.',
      ),
    ).toContain('content.dependency-owner-changed');
    expect(
      judge(
        'go.mod',
        'require github.com/gorilla/mux v1.8.0',
        'require github.com/gorilla/mux v1.8.1',
        'Update dependencies.',
      ),
    ).toEqual([]);
  });
});

describe('sourceOwnerChanged for container images', () => {
  it('a base image from another publisher is a change of owner; a new tag is not', () => {
    expect(sourceOwnerChanged('FROM nodejsfan/node-alpine:latest', 'FROM node:20-alpine')).toBe(true);
    expect(sourceOwnerChanged('FROM cgr.dev/chainguard/node:latest', 'FROM node:20-alpine')).toBe(true);
    expect(sourceOwnerChanged('    image: someone/postgres:16', '    image: postgres:16')).toBe(true);
    expect(sourceOwnerChanged('FROM node:22-alpine', 'FROM node:20-alpine')).toBe(false);
    expect(sourceOwnerChanged('FROM ghcr.io/acme/api:1.3', 'FROM ghcr.io/acme/api:1.2')).toBe(false);
    expect(sourceOwnerChanged('FROM ${BASE_IMAGE}', 'FROM node:20-alpine')).toBe(false);
  });
});
