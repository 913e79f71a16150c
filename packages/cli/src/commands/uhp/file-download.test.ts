import { describe, expect, it } from 'vitest';
import { localArtifactName } from './file-download.js';

describe('localArtifactName', () => {
  it('keeps only the last segment of an agent-chosen name', () => {
    expect(localArtifactName('report.md', 'file_1')).toBe('report.md');
    expect(localArtifactName('notes/deep/a.txt', 'file_1')).toBe('a.txt');
    expect(localArtifactName('../../etc/passwd', 'file_1')).toBe('passwd');
    expect(localArtifactName('..\\..\\win.ini', 'file_1')).toBe('win.ini');
  });

  it('never yields a name that is empty, a directory reference, hidden, or carries control characters', () => {
    expect(localArtifactName('', 'file_1')).toBe('file_1');
    expect(localArtifactName('..', 'file_1')).toBe('file_1');
    expect(localArtifactName('dir/', 'file_1')).toBe('dir');
    expect(localArtifactName('.bashrc', 'file_1')).toBe('_.bashrc');
    expect(localArtifactName('a\nb\x1b[2J.txt', 'file_1')).toBe('a_b_[2J.txt');
  });
});
