// The Bitcoin family's found blocks from a region: the feed's CoreSubmitter (../../../jobfeed/
// core-submit.ts), sending each block to the region's own nodes too when it has some.
import { submitBlockToAll, type SubmitNode } from '../node/index.js';
import {
  CoreSubmitter as FeedSubmitter,
  type CoreSubmitterOptions as FeedSubmitterOptions,
} from '../../../jobfeed/core-submit.js';

export {
  BLOCK_RESEND_MS,
  CORE_ATTEMPT_MS,
  RECORD_WAIT_MS,
  STATUS_POLL_MS,
  UNDELIVERED_ERROR_MS,
  UNREACHABLE_RETRY_MS,
} from '../../../jobfeed/core-submit.js';

export interface CoreSubmitterOptions extends Omit<FeedSubmitterOptions, 'ownSubmit'> {
  /** The region's own nodes of the coin (found blocks go to them too). */
  nodes?: readonly SubmitNode[];
}

export class CoreSubmitter extends FeedSubmitter {
  constructor({ nodes, ...options }: CoreSubmitterOptions) {
    super({
      ...options,
      ...(nodes && nodes.length > 0
        ? { ownSubmit: (blockHex, expected) => submitBlockToAll(nodes, blockHex, expected) }
        : {}),
    });
  }
}
