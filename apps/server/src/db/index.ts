export type { Database, DatabaseMemory, Queryable, QueryResult } from './types.js';
export { openDatabase, type OpenOptions } from './driver.js';
export { migrate, listMigrations, type Migration } from './migrate.js';
