import path from 'node:path';

/**
 * The banner's storage line: SQLite's file, or PostgreSQL's host, port and database. Built from the
 * connection string's parts and never from the string itself, so a password, or a query parameter
 * such as `password=` or `sslkey=`, can never be printed.
 */
export function describeStorage(database: string | undefined, dataDir: string): string {
  if (database === undefined) return `SQLite ${path.join(dataDir, 'arbiter.db')}`;
  let url: URL;
  try {
    url = new URL(database);
  } catch {
    // Validated before the server starts; a string that does not parse is still never shown.
    return 'PostgreSQL (connection string not shown)';
  }
  // libpq takes the host from `?host=` too (a Unix socket directory), and defaults to the socket.
  const host = url.hostname || url.searchParams.get('host') || 'the local socket';
  const port = url.port ? `:${url.port}` : '';
  const name = decodeURIComponent(url.pathname.replace(/^\//, '')) || url.searchParams.get('dbname');
  const user = url.username ? `, user ${decodeURIComponent(url.username)}` : '';
  return `PostgreSQL ${host}${port}, database ${name || '(the user’s default)'}${user}`;
}
