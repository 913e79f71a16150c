/**
 * A PostgreSQL connection string with its password replaced by `***`, so it can appear in a log
 * line or an error: the password is a secret, while the host and database name help a person find
 * what failed. Done on the text rather than through `URL`, which cannot set a password on a URL
 * without a host (`postgresql://user:pw@/db?host=/run/postgresql`, a Unix socket).
 */
export function redactConnectionString(connectionString: string): string {
  return (
    connectionString
      // user:password@ in the authority (the password runs to the last @ before the path).
      .replace(/^([a-z][a-z0-9+.-]*:\/\/[^/?#:@]*:)[^/?#]*@/i, '$1***@')
      // password=… as a URL parameter or in a key=value string.
      .replace(/([?&\s]|^)(password\s*=\s*)('[^']*'|[^&\s]*)/gi, '$1$2***')
  );
}

/** True when a `--database` value names PostgreSQL. */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value);
}
