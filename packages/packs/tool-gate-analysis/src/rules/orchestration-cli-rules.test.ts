import { beforeAll, describe, expect, it } from 'vitest';
import { analyseToolCallSync } from '../analyse-tool-call.js';
import { loadBashParser } from '../bash-parser.js';

// The container, cluster and infrastructure CLIs read their options with the one option parser
// (issue 27, item 4). Each misreading below was the rule's own walk, which took the first word not
// starting with `-` for the command and tested options by their exact spelling.
const analyse = (command: string) =>
  analyseToolCallSync({ tool: 'Bash', arguments: { command }, grant: ['Bash'], task: 'Fix the build.' });
const codes = (command: string) => analyse(command).findings.map((finding) => finding.code);

beforeAll(async () => {
  await loadBashParser();
});

describe('docker, podman and nerdctl', () => {
  it.each([
    // A global option's value was taken for the command, and compose's `-f FILE` for its subcommand.
    ['docker --context prod volume rm pgdata', 'cli.docker.volume-rm'],
    ['docker -H ssh://ops@db1 volume rm pgdata', 'cli.docker.volume-rm'],
    ['docker compose -f compose.prod.yml down -v', 'cli.docker.compose-down-volumes'],
    ['docker compose --project-name app down --volumes', 'cli.docker.compose-down-volumes'],
    // Clusters: `-af`, `-fv` hid `--all` and `--force`.
    ['docker system prune -af', 'cli.docker.system-prune-all'],
    ['podman rm -fv web', 'cli.podman.rm-force'],
    // `--pid host` as two words is the host's process namespace, as `--pid=host` is.
    ['docker run --pid host alpine ps', 'cli.docker.run-host-access'],
    ['docker run -itv /:/host alpine sh', 'cli.docker.run-host-access'],
  ])('%j reads as %s', (command, code) => {
    expect(codes(command)).toContain(code);
  });

  it('judges the command given to exec and run, after a cluster whose last letter takes a value', () => {
    // Before: `-e X=1` made `X=1` the container and `app` the command.
    expect(analyse('docker exec -e X=1 app rm -rf /').answers.destructive.noul).toBeGreaterThanOrEqual(0.7);
    // Before: `-itp`'s value `8080:80` was taken for the image and `node:20` for the command.
    expect(codes('docker run -itp 8080:80 node:20 rm -rf /')).toContain('shell.rm.recursive-force:/');
    expect(analyse('docker exec -it app -- rm -rf /').answers.destructive.noul).toBeGreaterThanOrEqual(0.7);
  });

  it.each([
    'docker run --rm -e NODE_ENV=test -v "$PWD":/app -w /app node:20 npm test',
    'docker compose -f compose.yml up --build',
    'docker compose -p app logs -f api',
    'docker run --rm --privileged=false alpine echo ok',
  ])('%j stays allowed', (command) => {
    expect(analyse(command).answers.disposition.choice).toBe('allow');
  });
});

describe('kubectl and oc', () => {
  it.each([
    // The namespace before the verb was taken for the verb.
    ['kubectl -n prod delete deployment api', 'cli.kubectl.delete:deployment'],
    ['kubectl --context=prod -n prod delete ns staging', 'cli.kubectl.delete-broad:ns'],
    // `--replicas 0` as two words scales to zero as `--replicas=0` does.
    ['kubectl scale deployment/api --replicas 0', 'cli.kubectl.scale-to-zero'],
    ['oc -n prod apply --prune -l app=api -f k8s/', 'cli.kubectl.apply-force'],
  ])('%j reads as %s', (command, code) => {
    expect(codes(command)).toContain(code);
  });

  it('a flag value is not the verb', () => {
    expect(codes('kubectl get pods -n delete').some((code) => code.startsWith('cli.kubectl.delete'))).toBe(
      false,
    );
    expect(codes('kubectl -n delete get pods').some((code) => code.startsWith('cli.kubectl.delete'))).toBe(
      false,
    );
  });
});

describe('terraform and tofu', () => {
  it.each([
    ['terraform -chdir=infra destroy -auto-approve', 'cli.terraform.destroy'],
    ['terraform apply --destroy --var-file prod.tfvars', 'cli.terraform.destroy'],
    ['tofu apply -var-file prod.tfvars -auto-approve', 'cli.tofu.apply-auto-approve'],
  ])('%j reads as %s', (command, code) => {
    expect(codes(command)).toContain(code);
  });

  it('a value of false is not the switch', () => {
    expect(codes('terraform apply -auto-approve=false')).toContain('cli.terraform.apply');
    expect(codes('terraform plan -destroy=false -out tf.plan')).toContain('cli.terraform.plan');
  });
});

describe('kubectl port-forward', () => {
  const decide = (command: string, task = 'Let me connect to the cluster database from my laptop.') =>
    analyseToolCallSync({ tool: 'Bash', arguments: { command }, grant: ['Bash'], task }).answers.disposition
      .choice;

  it.each([
    'kubectl port-forward svc/postgres 5432:5432',
    'kubectl port-forward svc/postgres 5432:5432 -n staging',
    'kubectl port-forward --address 127.0.0.1,localhost pod/api-0 8080:80',
    'oc port-forward --pod-running-timeout=2m pod/x 8080:80',
  ])('%j listens on loopback only: routine', (command) => {
    expect(decide(command)).toBe('allow');
  });

  it.each([
    // kubectl's default is localhost; another address exposes the service to the network.
    'kubectl port-forward --address 0.0.0.0 svc/postgres 5432:5432',
    'kubectl port-forward --address=192.168.1.4 svc/postgres 5432',
    'kubectl port-forward --address localhost,0.0.0.0 svc/postgres 5432',
    // An option kubectl's vocabulary does not list is not understood.
    'kubectl port-forward --frobnicate svc/postgres 5432',
  ])('%j is not allowed', (command) => {
    expect(decide(command)).not.toBe('allow');
  });

  it('opens production data to this machine only when the task speaks of production', () => {
    expect(decide('kubectl -n prod port-forward svc/postgres 5432', 'Fix the login bug.')).not.toBe('allow');
    expect(
      decide('kubectl port-forward svc/postgres 5432 -n production', 'Check the production database schema.'),
    ).toBe('allow');
  });
});

describe('helm', () => {
  const decide = (command: string) => analyse(command).answers.disposition.choice;

  it.each([
    'helm upgrade --install web ./chart -n dev --dry-run',
    'helm template charts/api -f values.yaml --set image.tag=1.2',
    'helm lint charts/api --strict',
    'helm status api --show-resources',
    'helm pull bitnami/nginx --untar',
    'helm list -A',
  ])('%j uses only options helm’s vocabulary knows: routine', (command) => {
    expect(decide(command)).toBe('allow');
  });

  it.each([
    // The verb comes first: a release named like a read (`api`) does not make an install a read.
    'helm install api ./chart --kube-token abc',
    'helm -n dev upgrade api ./chart --set a=b',
    // A post-renderer is a program helm runs; a plugin is code the vocabulary does not know.
    'helm upgrade api ./chart --post-renderer ./hook.sh --dry-run',
    'helm diff upgrade api ./chart',
  ])('%j is not allowed', (command) => {
    expect(decide(command)).not.toBe('allow');
  });

  it('keeps the verb after a global option’s value', () => {
    expect(codes('helm -n prod uninstall payments')).toContain('cli.helm.destructive:uninstall');
  });
});

describe('firebase emulators', () => {
  it('runs the local emulators with known options', () => {
    expect(analyse('firebase emulators:start --only firestore').answers.disposition.choice).toBe('allow');
    expect(analyse('firebase emulators:start --frobnicate').answers.disposition.choice).not.toBe('allow');
    expect(analyse('firebase deploy --only hosting').answers.disposition.choice).not.toBe('allow');
  });
});
