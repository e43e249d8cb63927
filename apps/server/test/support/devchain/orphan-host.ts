// Test fixture: a stand-in "pool" process that starts a dev chain, reports its processes on
// stdout, and then idles until it is killed (the test kills it with SIGKILL).
import pino from 'pino';
import { startBtcDevChain, startLtcDevChain } from '../../../src/coins/bitcoin/devchain/index.js';

const coin = process.argv[2];
const logger = pino({ level: 'warn' });
const chain = coin === 'LTC' ? await startLtcDevChain({ logger }) : await startBtcDevChain({ logger });
process.stdout.write(JSON.stringify({ ready: true, pids: chain.processIds(), rpc: chain.rpc }) + '\n');
setInterval(() => undefined, 60_000);
