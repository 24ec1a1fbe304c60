/**
 * The db area's public face: the long-term SQL store's types (declared in database.ts) and
 * `openDatabase`, which picks the adapter from the location. Other areas import only this file.
 */
export type * from './database.ts';
export { openDatabase } from './open-database.ts';
