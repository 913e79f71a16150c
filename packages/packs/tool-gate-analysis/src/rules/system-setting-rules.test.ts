import { beforeAll, describe, expect, it } from 'vitest';
import { analyseToolCallSync } from '../analyse-tool-call.js';
import { loadBashParser } from '../bash-parser.js';

const choice = (command: string) =>
  analyseToolCallSync({ tool: 'Bash', arguments: { command }, grant: ['Bash'], task: 'Fix the build.' })
    .answers.disposition.choice;

beforeAll(async () => {
  await loadBashParser();
});

describe('host settings: shown freely, set only when a person sees it', () => {
  it('reads the network, the clock, the name and kernel parameters', () => {
    for (const command of [
      'ip -4 addr',
      'ip link show dev lo',
      'ip neigh',
      'ifconfig -a',
      'date -R',
      'date -d yesterday +%F',
      'hostname -f',
      'sysctl vm.swappiness',
      'route -n',
    ])
      expect(choice(command), command).toBe('allow');
  });

  it('asks before setting them, with or without sudo', () => {
    for (const command of [
      'ip route del default',
      'sudo ip addr flush dev eth0',
      'ifconfig eth0 10.0.0.9 netmask 255.255.255.0',
      'date --set="2019-05-01 10:00"',
      'sudo date 010112002020',
      'sudo hostname build-7',
      'sysctl kernel.kptr_restrict=0',
      'sudo route add default gw 10.0.0.254',
    ])
      expect(choice(command), command).not.toBe('allow');
  });

  it("a verb-first CLI's resource names are not verbs", () => {
    expect(choice('kubectl patch svc get -n prod -p x')).not.toBe('allow');
    expect(choice('kubectl edit deploy status')).not.toBe('allow');
    expect(choice('kubectl get deploy restore')).toBe('allow');
    expect(choice('kubectl rollout history deploy/api')).toBe('allow');
  });
});

// ip, date and hostname read their options with the one option parser (issue 27, item 4).
describe('host settings read with the one option parser', () => {
  it('does not take an option’s value for a word of the command', () => {
    // Before: the date given to `-d` was read as the clock-setting operand.
    expect(choice('date -d 20261128 +%A')).toBe('allow');
    expect(choice('ip -n blue -br addr')).toBe('allow');
  });

  it('still finds the setting forms', () => {
    expect(choice('date 11281200')).not.toBe('allow');
    expect(choice('date --set=2026-01-01')).not.toBe('allow');
    expect(choice('ip -n blue link set eth0 down')).not.toBe('allow');
    expect(choice('hostname --file /etc/hostname.new')).not.toBe('allow');
  });
});
