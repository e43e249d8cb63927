// Files the server opens by path at run time. Each is resolved from a module one folder under
// apps/server/src, so the same relative URL holds from source (apps/server/src/files/) and from the
// bundle (apps/server/dist/src/, where every chunk sits and where scripts/build-server.mjs copies
// the assets flat). A module deeper in the tree must import these rather than build its own URL.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Absolute path of the command nodes run on each new tip (apps/server/bin/blocknotify.mjs). */
export const BLOCKNOTIFY_SCRIPT = path.resolve(
  fileURLToPath(new URL('../../bin/blocknotify.mjs', import.meta.url)),
);

/** The generic "stop the node when the pool dies" wrapper every dev node runs under (beside this file). */
export const NODE_SUPERVISOR = fileURLToPath(new URL('./node-supervisor.cjs', import.meta.url));
