#!/usr/bin/env node
// The `manjam` command (npx manjam ...): the TypeScript CLI in this very process, with tsx
// registered as a loader. One process, so a supervisor's SIGTERM reaches the pool itself (no
// wrapper to forward it) and the supervisor's main PID is the pool's.
import { register } from 'tsx/esm/api';

register();
await import(new URL('../src/cli.ts', import.meta.url).href);
