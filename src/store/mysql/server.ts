// A mysql:// (or mariadb://) URL's connection settings.

/** Connection settings of one mysql:// URL, in the shape Sequelize's replication option takes. */
export function server(url: string) {
  const u = new URL(url.replace(/^mariadb:/, 'mysql:'));
  return {
    host: u.hostname,
    port: Number(u.port || 3306),
    username: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    database: decodeURIComponent(u.pathname.slice(1)),
  };
}
