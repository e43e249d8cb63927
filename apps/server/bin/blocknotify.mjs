#!/usr/bin/env node
// Called by coin nodes on every new tip, where the node's shell has no bash (the pool's own
// command, blocknotifyCommand in src/coins/bitcoin/node/blocknotify-listener.ts, is a bash one-liner):
//   -blocknotify="node /abs/path/apps/server/bin/blocknotify.mjs 127.0.0.1:PORT LTC %s"
// Sends one UDP datagram "<COIN> <blockhash>" to the pool's template watcher and exits.
// Never blocks the node: no dependencies, a 1-second ceiling, exit code 0 unless misused. Node's
// start-up makes it slow: about 60 ms from the node's tip to the datagram on an idle 2-core
// machine (the bash command: about 2.5 ms), and it takes a core for that long.
import dgram from 'node:dgram';

const [target, coin, hash] = process.argv.slice(2);
const usage = 'usage: blocknotify.mjs <host:port> <COIN> <blockhash>';
const match = /^(.+):(\d{1,5})$/.exec(target ?? '');
if (!match || !coin || !/^[A-Za-z0-9]{2,10}$/.test(coin) || !/^[0-9a-fA-F]{64}$/.test(hash ?? '')) {
  process.stderr.write(`${usage}\n`);
  process.exit(2);
}
const host = match[1].replace(/^\[|\]$/g, '');
const port = Number(match[2]);

const socket = dgram.createSocket(host.includes(':') ? 'udp6' : 'udp4');
const giveUp = setTimeout(() => process.exit(0), 1000);
socket.on('error', (err) => {
  process.stderr.write(`blocknotify: ${err.message}\n`);
  clearTimeout(giveUp);
  process.exit(0);
});
socket.send(`${coin.toUpperCase()} ${hash.toLowerCase()}`, port, host, () => {
  clearTimeout(giveUp);
  socket.close();
});
