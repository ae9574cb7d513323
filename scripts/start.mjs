import { buildIfStale, root } from './build-if-stale.mjs';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

buildIfStale();
process.chdir(root);
await import(pathToFileURL(join(root, 'apps/server/dist/server.js')).href);
