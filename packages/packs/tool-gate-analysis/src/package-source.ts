/**
 * Where packages come from (principle 7 of issue 14, supply chain): the registries that are
 * each ecosystem's default, and the files and settings that change them. A registry change or
 * an install from elsewhere decides what code every later install runs.
 */
const DEFAULT_REGISTRY_HOSTS =
  /(^|\.)(registry\.npmjs\.org|registry\.yarnpkg\.com|npmjs\.com|pypi\.org|pythonhosted\.org|rubygems\.org|crates\.io|proxy\.golang\.org|sum\.golang\.org|repo1\.maven\.org|repo\.maven\.apache\.org|plugins\.gradle\.org|nuget\.org|packagist\.org|hex\.pm|pub\.dev|registry-1\.docker\.io|ghcr\.io|github\.com|codeload\.github\.com|objects\.githubusercontent\.com|deno\.land|jsr\.io)$/i;

export function isDefaultRegistryHost(host: string): boolean {
  return DEFAULT_REGISTRY_HOSTS.test(host);
}

/** Files that configure where a package manager downloads from. */
const SOURCE_CONFIG_FILES =
  /(^|\/)(\.npmrc|\.yarnrc(\.ya?ml)?|pip\.conf|pip\.ini|\.pypirc|\.gemrc|bunfig\.toml|\.cargo\/config(\.toml)?|\.m2\/settings\.xml|nuget\.config|\.condarc|uv\.toml|poetry\.toml)$/i;

export function isPackageSourceConfig(path: string): boolean {
  return SOURCE_CONFIG_FILES.test(path);
}

/**
 * Package manifests that can name where their packages come from: a Gemfile's `source` and `git:`,
 * a Pipfile's `[[source]]`, Gradle's `maven { url }`, a POM's repositories, Composer's
 * repositories, Cargo's `git`, `registry` and `index`, a pyproject's direct references, the
 * repositories pre-commit fetches its hooks from, Renovate's registries.
 */
const SOURCE_MANIFEST =
  /(^|\/)(\.gitmodules|Gemfile|gems\.rb|Pipfile|build\.gradle(\.kts)?|settings\.gradle(\.kts)?|pom\.xml|composer\.json|Cargo\.toml|pyproject\.toml|\.pre-commit-config\.ya?ml|(\.github\/)?renovate\.json5?|\.renovaterc(\.json)?)$/;
/**
 * A manifest line that says where packages or hooks come from (not a homepage or a licence link):
 * a source, registry, index, repository or mirror setting, or a direct reference (`name @ URL`).
 */
export const MANIFEST_SOURCE_LINE =
  /\b(source|url|git|registry|registryUrls|index|repositor(y|ies)|repo|maven|mirror)\b|\s@\s*\S+:\/\//i;

export function isSourceManifest(path: string): boolean {
  return SOURCE_MANIFEST.test(path);
}

/** Configuration keys and options that name a package source. */
export const SOURCE_SETTING =
  /^(--?)?((global|install|download|wheel)\.)?(registry|@[\w-]+:registry|index-url|index_url|extra-index-url|extra_index_url|find-links|trusted-host|npmRegistryServer|source|sources|add-source|mirror|repository-url|proxy|https?-proxy|httpsProxy|httpProxy)$/i;

/** Lockfiles: every entry says where a package's tarball is fetched from. */
export const LOCKFILE =
  /(^|\/)(package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.ya?ml|bun\.lock|Cargo\.lock|poetry\.lock|Pipfile\.lock|uv\.lock|Gemfile\.lock|go\.sum|composer\.lock)$/;

/** Hosts of URLs in text that are not a default registry (a lockfile entry swapped to elsewhere). */
export function foreignSourceHosts(text: string): string[] {
  const hosts: string[] = [];
  for (const match of text.matchAll(
    /\b(https?|git\+https?|git\+ssh|ssh):\/\/(?:[^@/\s"']*@)?([^/:\s"'#]+)/gi,
  )) {
    const host = match[2]!.toLowerCase();
    if (!isDefaultRegistryHost(host)) hosts.push(host);
  }
  return hosts;
}
