#!/usr/bin/env node
// The `manjam` command (npx manjam ...): the compiled server (apps/server/dist, built first when a
// source is newer: scripts/build-server.mjs) in this very process under plain node. One process,
// so a supervisor's SIGTERM reaches the pool itself (no wrapper to forward it) and the
// supervisor's main PID is the pool's.
import { pathToFileURL } from 'node:url';
import { ensureServerBuild } from '../../../scripts/build-server.mjs';

const entry = await ensureServerBuild((message) => process.stderr.write(`[manjam] ${message}\n`));
await import(pathToFileURL(entry).href);
