import { randomBytes } from 'node:crypto';
import {
  type Authenticator,
  createKeyAuthenticator,
  createNoAuthAuthenticator,
  LOCAL_PRINCIPAL_NAME,
} from '@arbiter/auth';
import type { PackAnalyser } from '@arbiter/decision';
import type { EngineKind } from '@arbiter/engine/catalog';
import { DEFAULT_ENGINE_KINDS, ModelCatalog } from '@arbiter/engine/catalog';
import { ModelCache, withLocalModels } from '@arbiter/engine/models';
import { PrepaidBudgets, ProcessSandbox, type UhpPluginOptions } from '@arbiter/harness-server';
import { PostgresDatabase } from '@arbiter/storage';
import type { FastifyInstance } from 'fastify';
import { type AppOptions, buildApp } from './app.js';
import { KeyStore } from './auth/key-store.js';
import { resolveDataDir, secureDataDir } from './config/data-dir.js';
import { loadServerConfig, type ServerConfig } from './config/server-config.js';
import { TeamGateStore } from './gate/team-gate-store.js';
import { servedPackAnalysers } from './served-pack-analysers.js';
import { resolveDatabaseSetting } from './storage/database-setting.js';
import { migrations } from './storage/migrations.js';
import { openStorage } from './storage/open-storage.js';

export const DEFAULT_PORT = 7411;
export const DEFAULT_HOST = '127.0.0.1';

/** Tasks one principal may run at once under `arbiter serve` (`limits.concurrentTasksPerPrincipal`). */
export const DEFAULT_CONCURRENT_TASKS_PER_PRINCIPAL = 16;

/** Bytes one principal may hold on disk under `arbiter serve` (`limits.diskBytesPerPrincipal`): 10 GiB. */
export const DEFAULT_DISK_BYTES_PER_PRINCIPAL = 10 * 1024 * 1024 * 1024;

/**
 * Files one principal may hold under `arbiter serve` (`limits.filesPerPrincipal`): five workspaces
 * at the artifact walk's limit of 20,000 entries each.
 */
export const DEFAULT_FILES_PER_PRINCIPAL = 100_000;

export interface StartServerOptions {
  /** 0 picks a free port. Default 7411. */
  readonly port?: number;
  /** Default 127.0.0.1 (loopback only). */
  readonly host?: string;
  /** Default `$ARBITER_DATA_DIR` or `~/.arbiter`. */
  readonly dataDir?: string;
  /**
   * `postgres://…`: store everything in that PostgreSQL database (several nodes may share it);
   * default the configuration's `database`, then `$ARBITER_DATABASE_URL`, else SQLite in the data
   * directory.
   */
  readonly database?: string;
  /** Path of a JSON or YAML configuration file. */
  readonly configPath?: string;
  /** Already-loaded configuration; wins over `configPath`. */
  readonly config?: ServerConfig;
  /** `false` serves everyone as one local principal (`--no-auth`). Default true. */
  readonly auth?: boolean;
  readonly logger?: AppOptions['logger'];
  /**
   * Pack analysers of the built-in engine. Default: the tool-gate analysis at the thresholds of the
   * configuration's `toolGating` section, so an operator's overrides reach the engine's disposition.
   */
  readonly analysers?: readonly PackAnalyser[];
  /** Extra engine kinds for catalog entries. */
  readonly engineKinds?: Readonly<Record<string, EngineKind>>;
  /** Local model cache (default `$ARBITER_MODELS_DIR`, else `<data dir>/models`); pulled models join the catalog. */
  readonly modelCacheDir?: string;
  /** The UHP API under /api/harness: `false` leaves it out; an object sets its options. Default on. */
  readonly harness?: false | Omit<UhpPluginOptions, 'authenticate' | 'db' | 'dataDir'>;
}

export interface RunningServer {
  readonly app: FastifyInstance;
  /** `http://host:port` as listened on. */
  readonly url: string;
  readonly dataDir: string;
  /** The operator key created because auth is on and no key existed; shown once, never again. */
  readonly initialKey: string | null;
  readonly authMode: Authenticator['mode'];
  /** The pin a request that names no model is answered by. */
  readonly defaultPin: string;
  /** The pulled model `arbiter-latest` follows, or null when it follows the built-in engine. */
  readonly localModel: string | null;
  /** The isolation task programs run under (null without the UHP API); `describe()` says it in one line. */
  readonly sandbox: ProcessSandbox | null;
  /** This node's name in task leases: the configuration's `cluster.nodeId`, else random per start. */
  readonly nodeId: string;
  /** The quotas each principal's UHP tasks are held to (null: none; both null without the UHP API). */
  readonly principalQuotas: {
    readonly concurrentTasks: number | null;
    readonly diskBytes: number | null;
    /** `limits.filesPerPrincipal`: workspace entries and stored files; null when not bounded. */
    readonly files: number | null;
  };
  close(): Promise<void>;
}

/**
 * Opens the data directory, loads the configuration and catalog, builds the app and listens.
 * With auth on and no active key, creates one and returns it in `initialKey`.
 */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const dataDir = resolveDataDir(options.dataDir);
  const config = options.config ?? (options.configPath ? loadServerConfig(options.configPath) : undefined);
  const modelCacheDir =
    options.modelCacheDir ?? ModelCache.defaultRoot({ ...process.env, ARBITER_DATA_DIR: dataDir });
  const kinds = Object.keys({ ...DEFAULT_ENGINE_KINDS, ...options.engineKinds });
  const local = withLocalModels(config?.catalog, new ModelCache(modelCacheDir), kinds);
  const catalog = new ModelCatalog({
    config: local.config,
    analysers: options.analysers ?? servedPackAnalysers(config),
    engineKinds: options.engineKinds,
    modelCacheDir,
  });
  secureDataDir(dataDir);
  const database = resolveDatabaseSetting({ database: options.database, configured: config?.database });
  // Chosen here rather than by the harness plugin, so the banner can name it.
  const nodeId =
    (options.harness ? options.harness.cluster?.nodeId : undefined) ??
    config?.cluster?.nodeId ??
    `node_${randomBytes(6).toString('hex')}`;
  // The principal quotas of `arbiter serve`, then a caller's own harness limits over them; both the
  // harness and the banner read the result.
  const quotaLimits = {
    maxConcurrentTasksPerPrincipal:
      config?.limits?.concurrentTasksPerPrincipal === undefined
        ? DEFAULT_CONCURRENT_TASKS_PER_PRINCIPAL
        : config.limits.concurrentTasksPerPrincipal,
    maxDiskBytesPerPrincipal:
      config?.limits?.diskBytesPerPrincipal === undefined
        ? DEFAULT_DISK_BYTES_PER_PRINCIPAL
        : config.limits.diskBytesPerPrincipal,
    maxFilesPerPrincipal:
      config?.limits?.filesPerPrincipal === undefined
        ? DEFAULT_FILES_PER_PRINCIPAL
        : config.limits.filesPerPrincipal,
    ...(options.harness ? options.harness.limits : {}),
  };
  const sql = await openStorage({ dataDir, ...(database ? { database } : {}) }, migrations);
  let keyStore: KeyStore | null = null;
  try {
    const asked = options.harness === false ? undefined : options.harness?.sandbox;
    const sandbox =
      options.harness === false
        ? null
        : asked instanceof ProcessSandbox
          ? asked
          : await ProcessSandbox.open(asked ?? config?.sandbox);
    const authOn = options.auth ?? true;
    let initialKey: string | null = null;
    // The first key is the operator's: whoever started the server administers it (docs/security.md).
    const keys = await KeyStore.open(sql);
    keyStore = keys;
    if (authOn && !(await keys.hasActiveKeys())) initialKey = (await keys.create(undefined, 'operator')).key;
    const authenticator = authOn
      ? createKeyAuthenticator(keys)
      : createNoAuthAuthenticator({ id: LOCAL_PRINCIPAL_NAME, name: LOCAL_PRINCIPAL_NAME });
    const app = await buildApp({
      catalog,
      authenticator,
      keyAdmin: keys,
      // The accounts the harness's tasks reserve from; a credit opens one in the configured currency.
      budgetAdmin: new PrepaidBudgets(sql, config?.billing),
      teamGate: { store: new TeamGateStore(sql), config: config?.toolGating?.team },
      limits: config?.limits,
      logger: options.logger,
      checkDatabase: () => sql.get('SELECT 1 AS one'),
      ...(options.harness === false
        ? {}
        : {
            harness: {
              db: sql,
              cluster: { ...config?.cluster, nodeId },
              dataDir,
              ...(config?.billing ? { pricing: config.billing } : {}),
              ...(config?.acp ? { acp: config.acp } : {}),
              ...(config?.agent ? { agent: config.agent } : {}),
              ...(config?.toolGating ? { toolGating: harnessToolGating(config.toolGating) } : {}),
              ...options.harness,
              ...(sandbox ? { sandbox } : {}),
              limits: quotaLimits,
            },
          }),
    });
    keys.onReloadError = (error) =>
      app.log.error({ err: error }, 'API keys: reloading from the database failed');
    if (sql instanceof PostgresDatabase)
      sql.onError = (error) =>
        app.log.warn({ err: error }, 'PostgreSQL: a connection failed; it is replaced');
    app.addHook('onClose', async () => {
      await keys.close();
      await sql.close();
    });
    const address = await app.listen({
      port: options.port ?? DEFAULT_PORT,
      host: options.host ?? DEFAULT_HOST,
    });
    return {
      app,
      url: address,
      dataDir,
      initialKey,
      authMode: authenticator.mode,
      defaultPin: catalog.resolve().pin,
      localModel: local.latest,
      sandbox,
      nodeId,
      principalQuotas:
        options.harness === false
          ? { concurrentTasks: null, diskBytes: null, files: null }
          : {
              concurrentTasks: quotaLimits.maxConcurrentTasksPerPrincipal ?? null,
              diskBytes: quotaLimits.maxDiskBytesPerPrincipal ?? null,
              files: quotaLimits.maxFilesPerPrincipal ?? null,
            },
      close: () => app.close(),
    };
  } catch (error) {
    if (keyStore) await keyStore.close();
    await sql.close();
    throw error;
  }
}

/** The harness's gate reads every `toolGating` setting but the team gate's, which is the server's. */
function harnessToolGating(toolGating: NonNullable<ServerConfig['toolGating']>) {
  const { team: _team, ...harness } = toolGating;
  return harness;
}
