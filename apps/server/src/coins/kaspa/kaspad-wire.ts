// The shapes of kaspad's protowire messages as proto/kaspad.proto decodes them (see
// grpc-proto.ts): u64/i64 fields are decimal strings, absent sub-messages null, enums by name.
// A request and its response are members of the KaspadMessage oneof; RESPONSE_OF pairs them.

export interface RpcErrorMessage {
  message: string;
}

export interface RpcBlockLevelParents {
  parentHashes: string[];
}

export interface RpcBlockHeader {
  version: number;
  parents: RpcBlockLevelParents[];
  hashMerkleRoot: string;
  acceptedIdMerkleRoot: string;
  utxoCommitment: string;
  /** Milliseconds since the epoch. */
  timestamp: string;
  bits: number;
  nonce: string;
  daaScore: string;
  blueWork: string;
  pruningPoint: string;
  blueScore: string;
}

export interface RpcScriptPublicKey {
  version: number;
  scriptPublicKey: string;
}

export interface RpcTransactionInput {
  previousOutpoint: { transactionId: string; index: number } | null;
  signatureScript: string;
  sequence: string;
  sigOpCount: number;
  verboseData: object | null;
}

export interface RpcTransactionOutput {
  /** Sompi. */
  amount: string;
  scriptPublicKey: RpcScriptPublicKey | null;
  verboseData: { scriptPublicKeyType: string; scriptPublicKeyAddress: string } | null;
}

export interface RpcTransaction {
  version: number;
  inputs: RpcTransactionInput[];
  outputs: RpcTransactionOutput[];
  lockTime: string;
  subnetworkId: string;
  gas: string;
  payload: string;
  mass: string;
  verboseData: {
    transactionId: string;
    hash: string;
    mass: string;
    blockHash: string;
    blockTime: string;
  } | null;
}

export interface RpcBlockVerboseData {
  hash: string;
  difficulty: number;
  selectedParentHash: string;
  transactionIds: string[];
  isHeaderOnly: boolean;
  blueScore: string;
  childrenHashes: string[];
  mergeSetBluesHashes: string[];
  mergeSetRedsHashes: string[];
  isChainBlock: boolean;
}

export interface RpcBlock {
  header: RpcBlockHeader | null;
  transactions: RpcTransaction[];
  verboseData: RpcBlockVerboseData | null;
}

export const SUBMIT_REJECT_REASONS = ['NONE', 'BLOCK_INVALID', 'IS_IN_IBD'] as const;
export type SubmitRejectReason = (typeof SUBMIT_REJECT_REASONS)[number];

/** Request bodies by oneof member name. Encoding accepts plain numbers or decimal strings. */
export interface KaspadRequests {
  getBlockTemplateRequest: { payAddress: string; extraData: string };
  submitBlockRequest: { block: RpcBlock; allowNonDAABlocks: boolean };
  getBlockRequest: { hash: string; includeTransactions: boolean };
  getBlocksRequest: { lowHash: string; includeBlocks: boolean; includeTransactions: boolean };
  getMempoolEntryRequest: { txId: string; includeOrphanPool: boolean; filterTransactionPool: boolean };
  getMempoolEntriesRequest: { includeOrphanPool: boolean; filterTransactionPool: boolean };
  getBlockDagInfoRequest: Record<string, never>;
  getInfoRequest: Record<string, never>;
  getBalanceByAddressRequest: { address: string };
  notifyNewBlockTemplateRequest: Record<string, never>;
}

interface WithError {
  error: RpcErrorMessage | null;
}

/** A transaction in kaspad's mempool. */
export interface RpcMempoolEntry {
  fee: string;
  transaction: RpcTransaction | null;
  isOrphan: boolean;
}

/** Response bodies by oneof member name. */
export interface KaspadResponses {
  getBlockTemplateResponse: WithError & { block: RpcBlock | null; isSynced: boolean };
  submitBlockResponse: WithError & { rejectReason: SubmitRejectReason };
  getBlockResponse: WithError & { block: RpcBlock | null };
  getBlocksResponse: WithError & { blocks: RpcBlock[]; blockHashes: string[] };
  getMempoolEntryResponse: WithError & { entry: RpcMempoolEntry | null };
  getMempoolEntriesResponse: WithError & { entries: RpcMempoolEntry[] };
  getBlockDagInfoResponse: WithError & {
    networkName: string;
    blockCount: string;
    headerCount: string;
    tipHashes: string[];
    difficulty: number;
    pastMedianTime: string;
    virtualParentHashes: string[];
    pruningPointHash: string;
    virtualDaaScore: string;
  };
  getInfoResponse: WithError & {
    p2pId: string;
    mempoolSize: string;
    serverVersion: string;
    isUtxoIndexed: boolean;
    isSynced: boolean;
  };
  getBalanceByAddressResponse: WithError & { balance: string };
  notifyNewBlockTemplateResponse: WithError;
}

export type KaspadRequestName = keyof KaspadRequests;
export type KaspadResponseName = keyof KaspadResponses;

/** Which response answers which request (kaspad answers each type in the order asked). */
export const RESPONSE_OF = {
  getBlockTemplateRequest: 'getBlockTemplateResponse',
  submitBlockRequest: 'submitBlockResponse',
  getBlockRequest: 'getBlockResponse',
  getBlocksRequest: 'getBlocksResponse',
  getMempoolEntryRequest: 'getMempoolEntryResponse',
  getMempoolEntriesRequest: 'getMempoolEntriesResponse',
  getBlockDagInfoRequest: 'getBlockDagInfoResponse',
  getInfoRequest: 'getInfoResponse',
  getBalanceByAddressRequest: 'getBalanceByAddressResponse',
  notifyNewBlockTemplateRequest: 'notifyNewBlockTemplateResponse',
} as const satisfies Record<KaspadRequestName, KaspadResponseName>;

export type ResponseOf<K extends KaspadRequestName> = KaspadResponses[(typeof RESPONSE_OF)[K]];

/** Notifications kaspad pushes on the stream after a Notify…Request. */
export const KASPAD_NOTIFICATIONS = ['newBlockTemplateNotification'] as const;
export type KaspadNotification = (typeof KASPAD_NOTIFICATIONS)[number];

/** An outgoing envelope: the client sets exactly one request member. */
export type KaspadRequestEnvelope = Partial<KaspadRequests>;

/** An incoming envelope as decoded: `payload` names the member that is set (absent: unknown to our .proto). */
export interface KaspadEnvelope {
  payload?: string;
  [member: string]: unknown;
}

const RESPONSE_NAMES: ReadonlySet<string> = new Set(Object.values(RESPONSE_OF));

export function isResponseName(name: string): name is KaspadResponseName {
  return RESPONSE_NAMES.has(name);
}

export function isNotificationName(name: string): name is KaspadNotification {
  return (KASPAD_NOTIFICATIONS as readonly string[]).includes(name);
}
