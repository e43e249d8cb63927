// Many V2 test miners from one machine: the pool rate-limits V2 handshakes per address (a burst
// of 20) and per pool (100 a second), so drill miners come from loopback addresses 127.77.0.1 and
// up, 16 each, and a handshake the pool shed (closed before act two) is tried again.
import {
  Sv2HandshakeRefused,
  Sv2TestClient,
} from '../../apps/server/test/support/coins/bitcoin/stratum-v2/client.js';

const PER_ADDRESS = 16;

/** The loopback address the `i`th drill miner connects from. */
export const drillAddress = (i: number): string => `127.77.0.${1 + Math.floor(i / PER_ADDRESS)}`;

/** The `i`th drill miner's V2 connection, its handshake tried again (every 50 ms) while the pool sheds it. */
export async function connectV2(port: number, authority: Uint8Array, i: number): Promise<Sv2TestClient> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await Sv2TestClient.connect(port, authority, '127.0.0.1', drillAddress(i));
    } catch (error) {
      if (error instanceof Sv2HandshakeRefused || attempt >= 200) throw error;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
