import { beforeAll, describe, expect, it } from 'vitest';
import { analyseToolCallSync } from '../analyse-tool-call.js';
import { loadBashParser } from '../bash-parser.js';

const codes = (command: string, task = 'Work on the project.') =>
  analyseToolCallSync({ tool: 'Bash', arguments: { command }, grant: ['Bash'], task }).findings.map(
    (finding) => finding.code,
  );

beforeAll(async () => {
  await loadBashParser();
});

describe('security settings stored from the shell', () => {
  it('a setting about security, what runs or what is trusted, not named by the task, is asked', () => {
    expect(
      codes('npm config set ignore-scripts false --location=global', 'Fix the native module install.'),
    ).toContain('vocab.security-setting:ignore-scripts');
    expect(codes('yarn config set strict-ssl false')).toContain('vocab.security-setting:strict-ssl');
  });

  it('a setting the task names, or one about nothing of the kind, is not', () => {
    expect(codes('npm config set ignore-scripts true', 'Set ignore scripts for this project.')).not.toContain(
      'vocab.security-setting:ignore-scripts',
    );
    expect(codes('npm config set fund false').some((code) => code.startsWith('vocab.security-setting'))).toBe(
      false,
    );
  });
});

describe('keys made below the strength floor', () => {
  it('RSA under 2048 bits or DSA, from any key tool', () => {
    expect(codes("ssh-keygen -t rsa -b 1024 -N '' -f deploy_key")).toContain(
      'vocab.weak-key:ssh-keygen:rsa-1024',
    );
    expect(codes('openssl req -x509 -newkey rsa:1024 -keyout k.pem -out c.pem -days 30 -nodes')).toContain(
      'vocab.weak-key:openssl:rsa-1024',
    );
    expect(codes('ssh-keygen -t dsa -f old_key')).toContain('vocab.weak-key:ssh-keygen:dsa');
  });

  it('strong keys are routine', () => {
    const weak = (command: string) => codes(command).some((code) => code.startsWith('vocab.weak-key'));
    expect(weak('ssh-keygen -t ed25519 -f deploy_key -C deploy@harbor')).toBe(false);
    expect(weak('ssh-keygen -t rsa -b 4096 -f deploy_key')).toBe(false);
    expect(weak('openssl genrsa -out key.pem 3072')).toBe(false);
  });
});

describe('a security setting moved to its protective side', () => {
  it('closes what was open, so it is not asked', () => {
    const asked = (command: string) =>
      codes(command).some((code) => code.startsWith('vocab.security-setting'));
    expect(asked('npm config set strict-ssl true')).toBe(false);
    expect(asked('npm config set ignore-scripts true')).toBe(false);
    expect(asked('npm config set ignore-scripts false')).toBe(true);
  });
});
