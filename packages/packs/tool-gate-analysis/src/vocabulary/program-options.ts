import { GIT_GLOBAL_OPTIONS_WITH_VALUE } from '@arbiter/tool-gate/git-global-options';
import { type OptionTable, options, type ProgramVocabulary } from './option-vocabulary.js';

/**
 * The option vocabularies of the programs agents run most, written from each program's own
 * documentation of its everyday options (build, test, install). An option not listed is not
 * understood and makes the call at most ASK (`option-vocabulary.ts`); widen these tables with
 * the options real projects use, never by letting unknown options through.
 */

const CONTAINER_BUILD: OptionTable = {
  ...options(
    '-t= --tag= -f= --file= --build-arg= --target= --platform= --no-cache --pull -q --quiet --progress= --label= ' +
      '--cache-from= --cache-to= --load --network= --secret= --ssh= --iidfile= --rm --force-rm --compress ' +
      '--shm-size= --memory= -m= --add-host= --builder= --provenance= --sbom= --build-context= --metadata-file= ' +
      '--no-cache-filter= --allow= --annotation= --isolation= --ulimit= --format= --layers --squash',
  ),
  // An image pushed from a build leaves the machine: it is a publication (principle 7).
  ...options('--push', 'publish'),
  // `--output type=registry` pushes too; another output writes files. Either is read from its value.
  ...options('-o= --output=', 'publish'),
};

const CONTAINER_CLI: ProgramVocabulary = {
  global: options('--help -h --debug -D --log-level= -l= --context= -c= --host= -H='),
  subcommands: {
    build: CONTAINER_BUILD,
    'buildx build': CONTAINER_BUILD,
    'image build': CONTAINER_BUILD,
    'builder build': CONTAINER_BUILD,
  },
};

const CARGO_BUILD: OptionTable = options(
  '--release -r -p= --package= -F= --features= --all-features --no-default-features --workspace --all ' +
    '--exclude= --all-targets --lib --bins --bin= --examples --example= --tests --test= --benches --bench= ' +
    '--target= --target-dir= -j= --jobs= --locked --offline --frozen --message-format= --manifest-path= ' +
    '--profile= --doc --no-run --no-fail-fast --timings --keep-going --future-incompat-report --ignore-rust-version ' +
    '--unit-graph -vv --check --fix --allow-dirty --allow-staged --open --no-deps --document-private-items --quiet',
);

const CARGO: ProgramVocabulary = {
  // `--config KEY=VALUE` rewrites cargo's configuration for the run (sources, registries, linkers):
  // it carries code and supply-chain settings the gate does not read (principle 2).
  global: {
    ...options('--help -h --version -V --verbose -v --quiet -q --color= --frozen --locked --offline -Z= -C='),
    ...options('--config=', 'code'),
  },
  subcommands: {
    build: CARGO_BUILD,
    b: CARGO_BUILD,
    check: CARGO_BUILD,
    c: CARGO_BUILD,
    test: CARGO_BUILD,
    t: CARGO_BUILD,
    run: CARGO_BUILD,
    r: CARGO_BUILD,
    clippy: CARGO_BUILD,
    doc: CARGO_BUILD,
    d: CARGO_BUILD,
    bench: CARGO_BUILD,
    fmt: CARGO_BUILD,
    fix: CARGO_BUILD,
    tree: options(
      '-p= --package= -i= --invert= -e= --edges= --depth= --prefix= --no-dedupe -d --duplicates --target= -F= --features= --all-features --workspace',
    ),
    metadata: options('--format-version= --no-deps --all-features --features= --filter-platform='),
  },
};

const PIP: ProgramVocabulary = {
  global: options(
    '--help -h --version -V --verbose -v -vv --quiet -q --isolated --no-input --disable-pip-version-check ' +
      '--no-color --timeout= --retries= --proxy= --cache-dir= --no-cache-dir --log= --python= --require-virtualenv ' +
      '--root-user-action= --progress-bar=',
  ),
  subcommands: {
    install: options(
      '-r= --requirement= -c= --constraint= -e= --editable= -U --upgrade --upgrade-strategy= --user --target= -t= ' +
        '--prefix= --root= --no-deps --pre --require-hashes --only-binary= --no-binary= --prefer-binary ' +
        '--force-reinstall --ignore-installed -I --no-build-isolation --no-warn-script-location --dry-run ' +
        '--break-system-packages --no-compile --compile --report= --group= --index-url= -i= --extra-index-url= ' +
        '--no-index --find-links= -f= --trusted-host= --use-pep517 --no-use-pep517 --check-build-dependencies ' +
        '--config-settings= -C= --src= --platform= --python-version= --implementation= --abi= --no-clean',
    ),
    uninstall: options('-r= --requirement= -y --yes --break-system-packages'),
    download: options(
      '-r= --requirement= -d= --dest= --no-deps --only-binary= --platform= --python-version= -i= --index-url=',
    ),
    wheel: options('-r= --requirement= -w= --wheel-dir= --no-deps -e= --editable='),
    freeze: options('--all -l --local --user --path= --exclude-editable --exclude='),
    list: options(
      '-o --outdated -u --uptodate -e --editable -l --local --user --format= --not-required --exclude-editable --path=',
    ),
    show: options('-f --files'),
    check: {},
    config: options('--global --user --site --editor='),
    cache: {},
    debug: {},
    hash: options('-a= --algorithm='),
    inspect: options('--local --user --path='),
    index: {},
  },
};

const NPM_INSTALL: OptionTable = options(
  '-D --save-dev -S --save -E --save-exact -O --save-optional --save-peer --save-prod -P --no-save --global -g ' +
    '--legacy-peer-deps --strict-peer-deps --force -f --no-audit --audit --no-fund --prefer-offline --prefer-online ' +
    '--offline --omit= --include= -w= --workspace= --workspaces --ws --include-workspace-root --ignore-scripts ' +
    '--production --registry= --loglevel= --silent -s --verbose -d -dd -y --yes --package-lock-only ' +
    '--no-package-lock --package-lock --dry-run --foreground-scripts --install-strategy= --location= ' +
    '--install-links --no-bin-links --no-optional --no-progress --progress --engine-strict --cache= --prefix= ' +
    '--frozen-lockfile --no-frozen-lockfile --color= --no-color --json --before= --lockfile-version=',
);

const NPM: ProgramVocabulary = {
  global: options(
    '--help -h --version -v --loglevel= --silent -s --quiet -q --verbose --json --prefix= -C= --workspace= -w= --workspaces --ws --registry= --no-color --color=',
  ),
  subcommands: {
    install: NPM_INSTALL,
    i: NPM_INSTALL,
    add: NPM_INSTALL,
    ci: NPM_INSTALL,
    'install-clean': NPM_INSTALL,
  },
};

/** The values and release options helm's install, upgrade and template share (helm's own help). */
const HELM_VALUES: OptionTable = {
  ...options(
    '-f= --values= --set= --set-string= --set-file= --set-json= --set-literal= --version= --devel --dependency-update ' +
      '--skip-crds --no-hooks --timeout= --wait --wait-for-jobs --atomic --dry-run --dry-run= --description= ' +
      '--create-namespace --render-subchart-notes --disable-openapi-validation --skip-schema-validation --labels= ' +
      '--hide-notes -o= --output= --generate-name -g --name-template=',
  ),
  // A post-renderer is a program helm runs on the rendered manifests.
  ...options('--post-renderer= --post-renderer-args=', 'code'),
};

/**
 * helm: every subcommand the gate understands, each with its everyday options; another (a plugin,
 * `helm diff`) is not understood. Chart sources, credentials and TLS switches (`--repo`,
 * `--username`, `--kube-token`, `--insecure-skip-tls-verify`) are not listed: they are asked.
 */
const HELM: ProgramVocabulary = {
  global: options(
    '--help -h --debug --kube-context= --kubeconfig= -n= --namespace= --burst-limit= --qps= --registry-config= ' +
      '--repository-cache= --repository-config=',
  ),
  closed: true,
  subcommands: {
    upgrade: {
      ...HELM_VALUES,
      ...options(
        '--install -i --reuse-values --reset-values --reset-then-reuse-values --cleanup-on-fail --history-max=',
      ),
    },
    install: HELM_VALUES,
    template: {
      ...HELM_VALUES,
      ...options(
        '-s= --show-only= --include-crds --skip-tests --api-versions= --kube-version= --release-name --validate --is-upgrade --output-dir=',
      ),
    },
    lint: options(
      '-f= --values= --set= --set-string= --set-file= --set-json= --strict --with-subcharts --quiet --kube-version=',
    ),
    ...Object.fromEntries(
      ['list', 'ls'].map((verb) => [
        verb,
        options(
          '-A --all-namespaces -a --all -d --date --deployed --failed -f= --filter= --max= -m= --no-headers --offset= ' +
            '-o= --output= --pending -r --reverse -l= --selector= -q --short --superseded --time-format= --uninstalled --uninstalling',
        ),
      ]),
    ),
    status: options('-o= --output= --revision= --show-desc --show-resources'),
    history: options('--max= -o= --output='),
    hist: options('--max= -o= --output='),
    package: options('-d= --destination= -u --dependency-update --app-version= --version='),
    ...Object.fromEntries(
      ['dependency', 'dep'].flatMap((group) => [
        [`${group} build`, options('--skip-refresh')],
        [`${group} update`, options('--skip-refresh')],
        [`${group} up`, options('--skip-refresh')],
        [`${group} list`, options('--max-col-width=')],
        [`${group} ls`, options('--max-col-width=')],
      ]),
    ),
    'repo add': options('--force-update'),
    'repo update': {},
    'repo up': {},
    'repo list': options('-o= --output='),
    'repo ls': options('-o= --output='),
    'repo remove': {},
    'repo rm': {},
    'search repo': options(
      '--versions --devel -o= --output= --max-col-width= -r --regexp --version= -l --fail-on-no-result',
    ),
    'search hub': options('-o= --output= --max-col-width= --list-repo-url --fail-on-no-result'),
    ...Object.fromEntries(
      ['show', 'inspect'].flatMap((verb) =>
        ['chart', 'values', 'readme', 'all', 'crds'].map((what) => [
          `${verb} ${what}`,
          options('--version= --devel'),
        ]),
      ),
    ),
    'get values': options('-a --all --revision= -o= --output='),
    'get manifest': options('--revision='),
    'get notes': options('--revision='),
    'get hooks': options('--revision='),
    'get metadata': options('--revision= -o= --output='),
    'get all': options('--revision= --template='),
    create: options('-p= --starter='),
    pull: options('--untar --untardir= -d= --destination= --version= --devel'),
    fetch: options('--untar --untardir= -d= --destination= --version= --devel'),
    ...Object.fromEntries(
      ['uninstall', 'delete', 'un', 'del'].map((verb) => [
        verb,
        options(
          '--keep-history --wait --timeout= --dry-run --no-hooks --cascade= --description= --ignore-not-found',
        ),
      ]),
    ),
    rollback: options(
      '--wait --wait-for-jobs --timeout= --dry-run --cleanup-on-fail --history-max= --no-hooks',
    ),
    push: {},
    version: options('--short --template='),
    env: {},
    test: options('--logs --timeout= --filter='),
    'plugin list': {},
    'plugin ls': {},
    'registry login': options('-u= --username= --password-stdin'),
    'registry logout': {},
    verify: options('--keyring='),
  },
};

/**
 * Options that service and infrastructure CLIs share for reading (output shape, scope, filters,
 * paging, verbosity): a read with only these is routine. Another option is not understood there,
 * since that is where a read becomes a reveal (`--show-token`, `--with-decryption`, `--raw`).
 */
export const SERVICE_READ_OPTIONS: OptionTable = options(
  '--help -h --version --verbose -v --quiet -q --debug --json --yaml --output= -o= --format= --query= ' +
    '--filter= --filters= --region= --profile= --project= --zone= --namespace= -n= --all-namespaces -A --context= ' +
    '--cluster= --selector= -l= --limit= -L= --max-results= --max-items= --page-size= --page= --per-page= --sort-by= ' +
    '--sort= --order= --no-color --color= --no-pager --wide --watch -w --since= --tail= --follow -f --name= --id= ' +
    '--app= -a= --org= --owner= --team= --repo= -R= --state= -s= --status= --label= --labels= --tag= --tags= --env= ' +
    '--environment= --stage= --stack-name= --resource-group= -g= --subscription= --account= --location= --all ' +
    '--long --recursive -r --show-labels --template= --jq= -q= --web --log --log-failed --branch= -b= --type= ' +
    '--kind= --level= --no-headers --timestamps --previous -p --container= -c= --start-time= --end-time= ' +
    '--until= --lines= --count= --fields= --columns= --prefix= --path= --scope= --service= --function-name= ' +
    '--log-group-name= --bucket= --table-name= --cluster-name= --instance-ids= --stack= --details --summarize ' +
    '--human-readable --dry-run --exit-status --comments --patch --name-only --hostname= --workflow= --event= ' +
    '--author= --assignee= --base= --head= --search= --sha= --commit= --job= --attempt= --run-id= --interval= ' +
    '--dryrun --list --describe --get --show --create --no-trunc --all-projects --configuration= --show-kind --raw-output --compact --pretty --table --csv --tsv',
);

export const PROGRAM_VOCABULARIES: ReadonlyMap<string, ProgramVocabulary> = new Map([
  ['docker', CONTAINER_CLI],
  ['podman', CONTAINER_CLI],
  ['nerdctl', CONTAINER_CLI],
  ['cargo', CARGO],
  ['pip', PIP],
  ['pip3', PIP],
  ['npm', NPM],
  ['helm', HELM],
]);

/**
 * The option specifications rules read a command's arguments with (`rules/option-parse.ts`): the
 * options of each program that take a value (spelled `-t=`, `--target=`), so that their value is
 * not read as an operand. Unlike the vocabularies above these are not closed: an option missing
 * here is read as a flag, and the rule judges what it knows. Keyed by program, or program and
 * subcommand.
 */
export const OPTION_SPECS = {
  /** git's global options that take a value, before its subcommand: the list the push guard reads too. */
  git: Object.fromEntries([...GIT_GLOBAL_OPTIONS_WITH_VALUE].map((name) => [`${name}=`, 'routine' as const])),
  'git clone': options('-b= --branch= -o= --origin= --depth= -c= --config= --reference= --name='),
  'git clean': options('-e= --exclude='),
  'git checkout': options('-b= -B= --orphan='),
  'git switch': options('-c= -C= --create= --force-create= --orphan='),
  'git restore': options('-s= --source='),
  'git push': options('-o= --push-option= --repo= --receive-pack= --exec='),
  /** And `srm`, `wipe`. */
  shred: options('-n= -s= --iterations= --size='),
  /** And `fallocate`. */
  truncate: options('-s= --size= -r= --reference='),
  /** And `chown`, `chgrp`, `chattr`, `setfacl`. */
  chmod: options('--reference= --from='),
  /** And `mv`, `ln`, `install`. */
  cp: options('-t= --target-directory= -S= --suffix= -m= --mode= -o= -g='),
  /** And `mkfifo`, `touch`. */
  mkdir: options('-m= --mode='),
  sed: options('-e= -f= --expression= --file='),
  curl: options(
    '-d= --data= --data-raw= --data-binary= --data-urlencode= --data-ascii= --json= -F= --form= --form-string= ' +
      '-T= --upload-file= -X= --request= -H= --header= -u= --user= -o= --output= -A= --user-agent= -e= --referer= ' +
      '-b= --cookie= -c= --cookie-jar= -K= --config= --url= -x= --proxy= -m= --max-time= --connect-timeout= ' +
      '-w= --write-out= -E= --cert= --key= --cacert= -r= --range= --retry= -C= --continue-at= -z= --time-cond= ' +
      '--resolve= -U= --proxy-user= --oauth2-bearer= --limit-rate= -Y= -y= --interface= --dns-servers=',
  ),
  /** The connection options SQL clients share (`psql`, `mysql`, `sqlite3`, `sqlcmd`, …), and `-f` for a script file. */
  'sql client': options(
    '-h= --host= -p= --port= -U= --username= -u= --user= -d= --dbname= -D= --database= -P= --password= -S= --socket= -W= -f= --file=',
  ),
  /** docker's, podman's and nerdctl's global options that take a value (before the command). */
  docker: options(
    '-H= --host= -c= --context= -l= --log-level= --config= --tlscacert= --tlscert= --tlskey= --url= --connection= --root= --runroot=',
  ),
  /** Compose's own options, before its subcommand. */
  'docker compose': options(
    '-f= --file= -p= --project-name= --profile= --env-file= --project-directory= --ansi= --progress= --parallel=',
  ),
  /** `run` and `create`: the image follows these, then its command (`docker run -itp 80:80 img sh`). */
  'docker run': options(
    '-e= --env= --env-file= -v= --volume= --mount= --name= -p= --publish= -w= --workdir= -u= --user= ' +
      '--network= --net= --entrypoint= -l= --label= --platform= --cpus= -m= --memory= --restart= -h= --hostname= ' +
      '--add-host= --dns= --device= --cap-add= --cap-drop= --security-opt= --ulimit= --log-driver= --log-opt= ' +
      '--pull= --tmpfs= --ipc= --pid= --shm-size= --gpus= --runtime= --cidfile= --group-add= --health-cmd= ' +
      '--stop-signal= --userns= --uts= --cgroupns= --expose= --link= --volumes-from= --memory-swap= -c= ' +
      '--cpu-shares= --cpuset-cpus= --init-path= --ip= --mac-address= --label-file= -a= --attach= --annotation= ' +
      '--network-alias= --stop-timeout= --pids-limit= --storage-opt= --sysctl= --detach-keys= --cgroup-parent=',
  ),
  /** `pull`: the image follows these (`-a` is `--all-tags`, a flag here). */
  'docker pull': options('--platform='),
  /** `exec`: the container follows these, then the command run in it. */
  'docker exec': options('-e= --env= --env-file= -u= --user= -w= --workdir= --detach-keys='),
  /** The options of the other commands the rule reads (`rm`, `prune`, `compose down`) that take a value. */
  'docker other': options('--filter= --format= --rmi= -t= --timeout= --time='),
  /** kubectl's and oc's options that take a value; its flags and words mix (`kubectl -n prod delete pod x`). */
  kubectl: options(
    '-n= --namespace= --context= --cluster= --kubeconfig= -s= --server= --user= --token= --as= --as-group= ' +
      '--as-uid= --certificate-authority= --client-certificate= --client-key= --tls-server-name= --cache-dir= ' +
      '--request-timeout= -v= --v= -l= --selector= -o= --output= -f= --filename= -k= --kustomize= -c= --container= ' +
      '--field-selector= --replicas= --current-replicas= --timeout= --grace-period= --cascade= --for= ' +
      '--field-manager= --template= --sort-by= --chunk-size= --image= --type= --resource-version= --subresource= ' +
      '--address= --pod-running-timeout=',
  ),
  /**
   * terraform's and tofu's options that take a value: single-dash words, read without clusters
   * (Go's flag package; `--name` is the same option as `-name`).
   */
  terraform: options(
    '-chdir= -var= -var-file= -target= -replace= -out= -state= -state-out= -backup= -lock-timeout= ' +
      '-parallelism= -backend-config= -plugin-dir= -from-module= -generate-config-out= -input -lock -refresh -json ' +
      '-auto-approve -destroy -refresh-only -no-color -compact-warnings -upgrade -reconfigure -migrate-state',
  ),
  /** The AWS CLI's global options and `s3`'s that take a value (`aws --profile prod s3 rm …`). */
  aws: options(
    '--profile= --region= --output= --endpoint-url= --query= --cli-read-timeout= --cli-connect-timeout= ' +
      '--ca-bundle= --color= --cli-binary-format= --exclude= --include= --acl= --storage-class= --sse= ' +
      '--sse-kms-key-id= --content-type= --cache-control= --metadata= --expires= --grants= --source-region= --page-size=',
  ),
  /**
   * gh's options that take a value and may come before the command's words (`gh -R o/r pr merge`)
   * or name what a rule reads (`api -X`, `auth refresh -s`).
   */
  gh: options(
    '-R= --repo= --hostname= -X= --method= -s= --scopes= -H= --header= -f= --field= -F= --raw-field= -q= --jq= ' +
      '-t= --template= --input= -p= --preview= -b= --body= -B= --base= -l= --label= -a= --assignee= -L= --limit= ' +
      '-S= --search= --state= -A= --author= --json= --milestone= --head= --workflow= --branch= --title=',
  ),
  /** helm's options that take a value, so that a namespace or a values file is not its verb (`helm -n dev uninstall x`). */
  helm: options(
    '-n= --namespace= --kube-context= --kubeconfig= -f= --values= --set= --set-string= --set-file= --set-json= ' +
      '--set-literal= --version= --timeout= -o= --output= --history-max= --description= -d= --destination= --repo= ' +
      '--username= --password= --post-renderer= --post-renderer-args= --max= --offset= --filter= --revision= ' +
      '--app-version= -s= --show-only= --output-dir= --api-versions= --kube-version= --name-template= --ca-file= ' +
      '--cert-file= --key-file= --keyring= --untardir= --kube-token= --kube-as-user= --kube-apiserver= ' +
      '--registry-config= --repository-cache= --repository-config= --burst-limit= --qps= --labels= --time-format= ' +
      '--starter= -p= --max-col-width= --cascade= --template=',
  ),
  /**
   * `firebase emulators:start`'s options (firebase-tools' help), all of them: the rule reads any
   * other as not understood.
   */
  'firebase emulators:start': options(
    '--only= --project= -P= --import= --export-on-exit --export-on-exit= --config= -c= --debug --json ' +
      '--inspect-functions --inspect-functions= --log-verbosity= --non-interactive --help -h',
  ),
  /** rclone's options that take a value; its flags and words mix (`rclone --config x sync a b`). */
  rclone: options(
    '--config= --log-file= --log-level= --transfers= --checkers= --bwlimit= --exclude= --include= --filter= ' +
      '--filter-from= --exclude-from= --include-from= --files-from= --max-age= --min-age= --max-size= --min-size= ' +
      '--backup-dir= --suffix= --retries= --timeout= --contimeout= --user-agent= --stats= --max-depth= --order-by=',
  ),
  /** systemctl's options that take a value (`systemctl -H host reboot`). */
  systemctl: options(
    '-H= --host= -M= --machine= -t= --type= -p= --property= -P= -s= --signal= --kill-whom= --kill-value= --root= ' +
      '--state= -n= --lines= -o= --output= --job-mode= --what= --when= --timestamp= --image= --preset-mode= --message=',
  ),
  /**
   * The POSIX shells' options that take a value (`bash -o pipefail`, `-O extglob`, `--rcfile F`);
   * `+o` reads as `-o`. `-c` is a flag: the command string is the first positional (bash(1)).
   */
  shell: options('-o= -O= --rcfile= --init-file='),
  /** fish takes its command as `-c`'s value (`fish -c CMD`, `--command=CMD`). */
  fish: options('-c= --command= -C= --init-command= -d= --debug= -o= --debug-output= --features='),
  /**
   * redis-cli's options that take a value (redis-cli --help). Each is a whole word (`-n 0`, no
   * clusters) and the first other word is the command: its option loop stops there.
   */
  'redis-cli': options(
    '-h= -p= -s= -a= -u= -n= -t= -r= -i= -d= -D= -X= --user= --pass= --sni= --cacert= --cacertdir= ' +
      '--tls-ciphers= --tls-ciphersuites= --cert= --key= --show-pushes= --pattern= --count= --quoted-pattern= ' +
      '--intrinsic-latency= --eval= --cluster= --lru-test= --memkeys-samples= --rdb= --functions-rdb=',
  ),
  /**
   * GNU xargs's options that take a value (xargs(1)); `-e`, `-i` and `-l` take one only attached
   * (`-i{}`), so they are flags here. The first positional is the command.
   */
  xargs: options(
    '-a= --arg-file= -d= --delimiter= -E= -I= -L= --max-lines= -n= --max-args= -P= --max-procs= -s= --max-chars= ' +
      '--process-slot-var= -e -i -l',
  ),
  /**
   * The command wrappers' own options that take a value, written from each program's `--help` or
   * manual: the value is not the command they run (`sudo -u deploy make`). How many positionals
   * precede the command, and which options query or carry a shell line, is `command-wrapper.ts`'s.
   */
  sudo: options(
    '-u= -g= -h= -p= -C= -r= -t= -T= -U= -D= -R= --user= --group= --host= --prompt= --close-from= ' +
      '--role= --type= --command-timeout= --other-user= --chdir= --chroot=',
  ),
  doas: options('-u= -C='),
  env: options('-u= --unset= -C= --chdir= -S= --split-string='),
  command: options(''),
  builtin: options(''),
  exec: options('-a='),
  nohup: options(''),
  timeout: options('-s= --signal= -k= --kill-after='),
  nice: options('-n= --adjustment='),
  ionice: options('-c= -n= -p= -P= -u= --class= --classdata= --pid= --pgid= --uid='),
  time: options('-f= --format= -o= --output='),
  stdbuf: options('-i= -o= -e= --input= --output= --error='),
  setsid: options(''),
  unbuffer: options(''),
  caffeinate: options('-t= -w='),
  chroot: options('--userspec= --groups='),
  flock: options('-w= --timeout= -E= --conflict-exit-code= -c= --command='),
  sg: options('-c='),
  chrt: options(''),
  taskset: options(''),
  numactl: options('-N= -m= -C= -i= -p= --cpunodebind= --membind= --physcpubind= --interleave= --preferred='),
  setarch: options(''),
  linux32: options(''),
  linux64: options(''),
  cpulimit: options('-l= --limit= -p= --pid= -e= --exe='),
  prlimit: options('-p= --pid= -o= --output='),
  unshare: options('-S= --setuid= -G= --setgid= -w= --wd= -R= --root= --map-user= --map-group='),
  faketime: options('-f='),
  rlwrap: options('-f= -H= -S= -P= -l='),
  valgrind: options(''),
  catchsegv: options(''),
  chpst: options('-u= -U= -e= -/= -n= -l= -L= -m= -d= -o= -p= -f= -c='),
  strace: options('-e= -o= -p= -s= -u='),
  ltrace: options('-e= -o= -p= -s= -u='),
  torsocks: options(''),
  proxychains: options('-f='),
  proxychains4: options('-f='),
  firejail: options(''),
  runuser: options('-u= -g= -G= --user= --group= --supp-group='),
  // `-d` (`--differences[=permanent]`) takes no separate value: `watch -d 'cmd'` runs `cmd`.
  watch: options('-n= --interval= -q= --equexit='),
  'dbus-launch': options(''),
  'xvfb-run': options('-a -s= -n= -e= -f= -p= --server-args= --server-num= --error-file= --auth-file='),
  /** ssh's options that take a value (ssh(1)); the first positional is the destination. */
  ssh: options('-b= -c= -D= -E= -e= -F= -I= -i= -J= -L= -l= -m= -O= -o= -p= -Q= -R= -S= -W= -w='),
  /** scp's options that take a value (scp(1)). */
  scp: options('-c= -F= -i= -J= -l= -o= -P= -S='),
  /** rsync's options that take a value (rsync(1)), so that `--exclude .env` is not a file sent. */
  rsync: options(
    '-e= --rsh= --exclude= --include= --exclude-from= --include-from= --files-from= -f= --filter= --rsync-path= ' +
      '--log-file= --log-file-format= --partial-dir= --backup-dir= --suffix= --chmod= --chown= --timeout= ' +
      '--contimeout= --bwlimit= --port= --password-file= -T= --temp-dir= --compare-dest= --copy-dest= --link-dest= ' +
      '--max-size= --min-size= --max-delete= --info= --debug= --out-format= -M= --remote-option= --iconv= ' +
      '--checksum-choice= --cc= --compress-choice= --zc= --compress-level= --zl= --skip-compress= --usermap= ' +
      '--groupmap= -B= --block-size= --sockopts= --address= --outbuf= --modify-window= --stop-after= --stop-at= ' +
      '--write-batch= --read-batch= --only-write-batch= --protocol=',
  ),
  /** iproute2's `ip` options that take a value (ip(8)); its options are whole words (`-br`, `-json`). */
  ip: options('-n= -netns= -f= -family= -b= -batch= -rc= -rcvbuf= -l= -loops='),
  /** GNU date's options that take a value (date(1)); `-I` and `--rfc-3339` take theirs attached. */
  date: options('-d= --date= -f= --file= -r= --reference= -s= --set='),
  /** hostname's options that take a value (hostname(1)). */
  hostname: options('-F= --file='),
  /** kill's options that take a value (kill(1)); a signal is otherwise a single-dash word (`-9`, `-HUP`). */
  kill: options('-s= --signal= -n= -q= --queue= --timeout='),
  /** pkill's options that take a value (pkill(1)), so a user or a group is not a process name. */
  pkill: options(
    '-u= --euid= -U= --uid= -g= --pgroup= -G= --group= -P= --parent= -s= --session= -t= --terminal= ' +
      '-F= --pidfile= --signal= --ns= --nslist= -q= --queue=',
  ),
  /** killall's options that take a value (killall(1)). */
  killall: options(
    '-u= --user= -s= --signal= -o= --older-than= -y= --younger-than= -n= --ns= -Z= --context=',
  ),
  /** wget's short options that take a value (`-qO- URL`, `-qO /etc/x URL`); its long ones carry `=`. */
  wget: options('-O= -P= -o= -a= -e= -i= -U= -t= -T= -w= -Q= -l= -A= -R= -D= -I= -X= -B='),
} as const satisfies Readonly<Record<string, OptionTable>>;
