/**
 * `npm run bench -- home-100k`: bench/home10k.ts with 100,000 local guest items (first row under 1 s,
 * fewer than 100 rows in the DOM). Seeding 100,000 rows through the page takes about half a minute.
 */
import { run as home } from './home10k';

export function run(): Promise<void> {
  return home(['--items', '100000']);
}
