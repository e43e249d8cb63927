// The chain side: node RPC, template watching, block submission.
export {
  RpcClient,
  RpcError,
  RawJsonNumber,
  RPC_ERROR_KINDS,
  type RpcEndpoint,
  type RpcErrorKind,
  type RpcCallOptions,
} from '../../../rpc/json-rpc.js';
export {
  ChainNode,
  type ChainNodeOptions,
  type NodeTemplate,
  type BlockHeaderInfo,
  type MiningInfo,
  type AddressValidation,
  type WalletTransaction,
  type WalletTransactionEntry,
  type SinceBlock,
} from './node.js';
export { NodeSet } from './node-set.js';
export {
  submitBlock,
  submitBlockToAll,
  SUBMIT_STATUSES,
  type SubmitResult,
  type SubmitStatus,
  type SubmitOptions,
  type SubmitNode,
} from './block-submitter.js';
export {
  TemplateWatcher,
  TEMPLATE_REASONS,
  type TemplateReason,
  type TemplateInfo,
  type TemplateListener,
  type TipListener,
  type TemplateWatcherOptions,
  type WatcherStatus,
  type WatcherNode,
} from './template-watcher.js';
export {
  BLOCKNOTIFY_SCRIPT,
  blocknotifyCommand,
  parseBlocknotify,
  BlocknotifyListener,
} from './blocknotify-listener.js';
