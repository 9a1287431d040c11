/** Stores made by openSqliteRunStore own their database and close it with themselves. */
export const ownedDatabases = new WeakSet<object>();
