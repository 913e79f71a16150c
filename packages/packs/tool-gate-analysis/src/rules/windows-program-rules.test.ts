import { beforeAll, describe, expect, it } from 'vitest';
import { analyseToolCall } from '../analyse-tool-call.js';

async function choice(command: string, tool = 'Bash') {
  const analysis = await analyseToolCall({
    tool,
    arguments: { command },
    grant: [tool],
    task: 'Find out why the service does not start on this machine.',
    cwd: 'C:\\Users\\dev\\service',
  });
  return analysis.answers.disposition.choice;
}

beforeAll(async () => {
  await analyseToolCall({ tool: 'Bash', arguments: { command: 'pwsh -c Get-Date' }, grant: [], task: '' });
});

describe('Windows system programs are judged the same from any shell', () => {
  it.each([
    // Git Bash (Claude Code's shell on Windows) removes the backslashes of an unquoted key.
    'reg add HKLM\\Software\\Microsoft\\Windows\\CurrentVersion\\RunOnce /v x /d C:\\t\\x.exe /f',
    'powershell -Command "reg add \'HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run\' /v x /d C:\\t\\x.exe /f"',
    'schtasks /create /tn Sync /tr C:\\t\\x.exe /sc onlogon',
    'netsh advfirewall set currentprofile state off',
  ])('%s changes what runs or what is open: not allowed', async (command) => {
    expect(await choice(command)).not.toBe('allow');
  });

  it.each([
    'reg query "HKLM\\SYSTEM\\CurrentControlSet\\Services\\W32Time"',
    'schtasks /query /tn Sync',
    'netsh interface ipv4 show addresses',
    'powershell -Command "reg query \'HKCU\\Environment\'"',
  ])('%s only shows: allowed', async (command) => {
    expect(await choice(command)).toBe('allow');
  });

  it('a verb the rule does not know is not understood', async () => {
    expect(await choice('reg load HKLM\\Temp C:\\t\\hive')).toBe('ask');
  });
});

describe("PowerShell's reading verbs", () => {
  it('an unmapped Get or Test cmdlet reads; one whose noun names a secret is asked', async () => {
    expect(await choice('powershell -Command "Get-NetAdapter | Select-Object Name, Status"')).toBe('allow');
    expect(await choice('powershell -Command "Test-NetConnection db01 -Port 5432"')).toBe('allow');
    expect(await choice('powershell -Command "Get-Secret -Name DeployKey -AsPlainText"')).not.toBe('allow');
    expect(
      await choice('powershell -Command "Get-StoredCredential -Target git:https://github.com"'),
    ).not.toBe('allow');
  });
});
