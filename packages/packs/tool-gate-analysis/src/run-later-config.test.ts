import { describe, expect, it } from 'vitest';
import { commandsInConfig } from './run-later-config.js';

describe('commandsInConfig', () => {
  it('reads the lifecycle commands of a dev container, string or array, and nothing else', () => {
    const text =
      '{\n  // JSONC comments are allowed\n  "name": "x",\n  "onCreateCommand": ["bash", "-c", "make setup"],\n  "postStartCommand": "npm run dev \\"quoted\\""\n}';
    expect(commandsInConfig('.devcontainer/devcontainer.json', text)).toEqual([
      'bash -c make setup',
      'npm run dev "quoted"',
    ]);
    expect(commandsInConfig('.devcontainer.json', '"postCreateCommand": "pip install -e ."')).toEqual([
      'pip install -e .',
    ]);
  });

  it('reads YAML keys inline, as lists and as literal blocks, also in a fragment', () => {
    const compose =
      'services:\n  app:\n    command: ["node", "server.js"]\n    entrypoint:\n      - /bin/sh\n      - -c\n';
    expect(commandsInConfig('compose.yaml', compose)).toEqual(['node server.js', '/bin/sh', '-c']);
    const gitpod = 'tasks:\n  - init: npm ci\n    command: |\n      npm run dev\n      echo ready\n';
    expect(commandsInConfig('.gitpod.yml', gitpod)).toEqual(['npm ci', 'npm run dev', 'echo ready']);
    // An Edit's new_string is a fragment of the file.
    expect(commandsInConfig('Taskfile.yml', '    cmds:\n      - go test ./...')).toEqual(['go test ./...']);
  });

  it('reads TOML commands, Procfile processes and tox command blocks', () => {
    expect(commandsInConfig('netlify.toml', '[build]\n  command = "hugo --minify"\n')).toEqual([
      'hugo --minify',
    ]);
    expect(commandsInConfig('fly.toml', "[deploy]\n  release_command = 'bin/migrate'\n")).toEqual([
      'bin/migrate',
    ]);
    expect(commandsInConfig('Procfile', 'web: gunicorn app:app\nrelease: ./manage.py migrate\n')).toEqual([
      'gunicorn app:app',
      './manage.py migrate',
    ]);
    const tox =
      '[testenv]\ncommands_pre = pip list\ncommands =\n    pytest -q\n    coverage report\ndeps = pytest\n';
    expect(commandsInConfig('tox.ini', tox)).toEqual(['pip list', 'pytest -q', 'coverage report']);
  });

  it('reads no commands from files of other kinds', () => {
    expect(commandsInConfig('src/settings.json', '"postCreateCommand": "rm -rf ~"')).toEqual([]);
    expect(commandsInConfig('README.md', 'command = "rm -rf ~"')).toEqual([]);
  });
});
