// XMR on the core's job feed: each template of monerod's template source goes out as the family's
// work message (messages.ts), and a region's found block is submitted to monerod (submit_block,
// then confirmed against the node's tip: MoneroTemplateSource.submitBlock).
import type { FeedChannel } from '../../../jobfeed/publisher.js';
import type { MoneroChainRuntime } from '../chain.js';
import { encodeMoneroWork, type MoneroWork } from './messages.js';

export function moneroChannel(runtime: MoneroChainRuntime): FeedChannel<{ template: MoneroWork }> {
  const { source } = runtime;
  return {
    coin: runtime.coin,
    network: runtime.network,
    poolAddress: runtime.poolAddress,
    current: () => (source.current ? encodeMoneroWork(source.current) : undefined),
    onWork: (listener) => {
      let on = true;
      // The template source has no unsubscribe: the listener goes quiet instead.
      source.onTemplate((template) => {
        if (on) listener(encodeMoneroWork(template));
      });
      return () => {
        on = false;
      };
    },
    submitBlock: (blockHex, expected) => source.submitBlock(blockHex, expected),
  };
}
