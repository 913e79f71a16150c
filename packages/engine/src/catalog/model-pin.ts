import semver from 'semver';

/** `<model>-<semver>`: the model is the shortest prefix after which a whole semver follows. */
const PIN =
  /^(?<model>[a-z][a-z0-9_.]*(?:-[a-z0-9][a-z0-9_.]*)*?)-(?<version>\d+\.\d+\.\d+(?:[-+][0-9a-z.+-]+)?)$/i;

export interface ModelPin {
  readonly model: string;
  readonly version: string;
}

/** Splits a concrete pin such as `arbiter-1.0.0`; null when `name` is not `<model>-<semver>`. */
export function parseModelPin(name: string): ModelPin | null {
  const match = PIN.exec(name);
  const model = match?.groups?.model;
  const version = match?.groups?.version;
  if (!model || !version || semver.valid(version) === null) return null;
  return { model, version };
}

/** The `<model>-latest` alias every model gets. */
export function latestAliasOf(model: string): string {
  return `${model}-latest`;
}

/**
 * The newest of a model's versions. Release versions win over pre-releases, so `-latest` only
 * follows a pre-release while no release of that model exists.
 */
export function newestVersion(versions: readonly string[]): string | undefined {
  const releases = versions.filter((version) => semver.prerelease(version) === null);
  const pool = releases.length > 0 ? releases : versions;
  return [...pool].sort(semver.rcompare)[0];
}
