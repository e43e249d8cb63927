/**
 * Real Kaspa headers for the tests, in kaspad's RPC shape (RpcBlockHeader). Facts, each checked
 * by the hash it must reproduce. Parents are given as runs (the same hash on consecutive levels).
 */
import type { RpcBlockHeader } from '../../src/kaspa/header.js';

type Run = [hashes: string[], levels: number];

export function parentLevels(runs: Run[]): { parentHashes: string[] }[] {
  return runs.flatMap(([hashes, levels]) => Array.from({ length: levels }, () => ({ parentHashes: hashes })));
}

/**
 * Kaspa mainnet block be95d8f3…e54c (DAA score 87768050, 2024-08-19), as kaspad's GetBlock
 * returns it (kept as a test vector by supertypo/kaspa-rest-server). Its coinbase pays
 * kaspa:qrxuk57hwz8s8la93jvf44q7e5derclnpg6thkgltya2ek67pvhasz43zf6ys with the script below.
 */
export const MAINNET_BLOCK = {
  hash: 'be95d8f3b51064e6bae0ce2659b2dbb9944fd47cc8e2510ecad73149f605e54c',
  coinbaseScript: '20cdcb53d7708f03ffa58c989ad41ecd1b91e3f30a34bbd91f593aacdb5e0b2fd8ac',
  coinbaseAddress: 'kaspa:qrxuk57hwz8s8la93jvf44q7e5derclnpg6thkgltya2ek67pvhasz43zf6ys',
  header: {
    version: 1,
    parents: parentLevels([
      [['911b8d97121c9972718913564732734e98545c280f4d9cc1101da747c1cdd6f9'], 30],
      [
        [
          '46bccc16780c4494380bda9b19a2027ea882f417ed077d05a84b2405c50c87bc',
          '516f3ada5f6879ee10bd3ced654e5f0527c501179cff827d29e3a9034b9f1751',
        ],
        1,
      ],
      [['309e08307992aafc26fcc2a43deb62db0eb2da362bde602489a47d1843b26ac1'], 1],
      [['d3ef05369b407a36f577e68b240d4830d6bbcf387a2ccba7a14df692edabde83'], 2],
      [['9bfeb17963c903e61e83a1d0d2ab749ff851f7780835eef2bea1307a4203bd33'], 3],
      [['5a7dc00ae69d152101381e8443a99b569a7a3372113833fe3dfc48cf1d8dfe9e'], 1],
      [['316f6dc2ed29853fcada555c9ee790e3f8247802984387c08eabb638588b89a9'], 3],
      [['25464ccd884133b3de6afe208ee22efc5b1d1445242a4495b8409f7ec37d8bce'], 2],
      [['2b9f6ef6d7944fce82d1c605ffbd3ef0ecc86bc09c898041680af69bd41a56dd'], 2],
      [['9f3b4c43fd4c6f48fe5294029145222a4d6f9c4e3dd8bd2a81597047c1874347'], 1],
      [['9c7c5b2e0cb234c81cf3983fe866ef45d3425b68d577bc5cadb8f33b96d8c7df'], 8],
    ]),
    hashMerkleRoot: 'a4f42ff8a8e240eb3f1b35cf7bd56044f3d4fe6db7b5cdbe56d858690c278778',
    acceptedIdMerkleRoot: '3ef3fbf49340062398be32fa20c4bfb0786b0b147f0021821283eedce64ce01e',
    utxoCommitment: '4ad51d9d625573e680f4c4211c9657c1026be501d38048a3f92cfca7b0ef181e',
    timestamp: '1724081279941',
    bits: 420908524,
    nonce: '9519250016613520',
    daaScore: '87768050',
    blueWork: '56217f0bcee1a55ea0424',
    blueScore: '86160825',
    pruningPoint: 'ef3ae1d5568d2dda83833fa67cebd075b9a5198f14da6109baf770b29955ed6e',
  } satisfies RpcBlockHeader,
};

/**
 * A mainnet block template of 2022-08-21 (kaspa-stratum-bridge's example_header.json) and what
 * the bridge's tests expect of it: its pre-PoW hash, the four job words and the 80-hex big job
 * (built there with 1662696346 as the timestamp).
 */
export const BRIDGE_TEMPLATE = {
  prePow: '853a0bb20ce86f2666da260099e3ab24bb4df7c83a9630e3f519f29a41142ed2',
  jobWords: [2769687437080476293n, 2642455852654975590n, 16370749824715673019n, 15145064868898544117n],
  bigJobTimestamp: 1662696346n,
  bigJob: '853a0bb20ce86f2666da260099e3ab24bb4df7c83a9630e3f519f29a41142ed29abb1a6300000000',
  header: {
    version: 1,
    parents: parentLevels([
      [['bafee3d9fb38f13784b3910964c4b469621a9a9128d67c034e586f558304e68e'], 15],
      [['6a81a712e2269bfa6c765bb6786096f475a268889be7ff3268b510690ec9a4cc'], 1],
      [['c9494053ec7dc5e5b42d13e2053bc294444e960bfa940c93567e31ac34369d32'], 1],
      [['2e5be6575ae28912a4b20e3f2c64db019c173a4aa52507d98ee2b7a258013196'], 3],
      [['cbe1f6a9d98a9c25a9e112f5692c36cb28d5cdd4fcd97effe75b645b09fac42f'], 2],
      [['7a748a62ae5c58e08ead9c270baff45a777c8d9ce766c8af40ccc1cc60159aae'], 2],
      [['b955ccc8ec6fdbfa4de994b942a7c94df2f5f247d1f379d81cc8c8962f073780'], 1],
      [['4b9fb4075a2c9e3d79a9cae9d34231f8119186ac037acd91b929c951d2f0489d'], 1],
      [['4a673c24bb30bb0cf26b752c666286deec108f6482834cd0fa10a09b37d54245'], 3],
      [['a4fab1eaa182069d7e349eb5696817e9ad67b31e1e9913d2b0e37e418aca893b'], 1],
      [['b5096607c01cb42ca73abb432365d4229967c8fa13664e0393db2523b49e8f07'], 5],
    ]),
    hashMerkleRoot: '3fae9bd437ca151774a04c72df3c2f6f194b5f65f09e53b54969330f080a9f4f',
    acceptedIdMerkleRoot: '103bfb5134c94c420846b4a480982a2a9b466b6cfc6d45b60bc10eccfed3c305',
    utxoCommitment: 'f32424c5aeb8ab1c5c72b547cf8cee55eec9f0633b13878c93611939a0195b96',
    timestamp: 1661062150793,
    bits: 453325233,
    nonce: 123456789,
    daaScore: 24606947,
    blueWork: '7b09bfb044de1ae41',
    blueScore: 23102453,
    pruningPoint: '37f4aeda7e595d2ddf6dabf6d21b4738eaa31cc2191e856c2969edd12bb459e0',
  } satisfies RpcBlockHeader,
};

const EMPTY_MUHASH = '544eb3142c000f0ad2c76ac41f4222abbababed830eeafee4b6dc56b52d5cac0';
const ZERO_HASH = '00'.repeat(32);

/** Genesis headers of kaspad's four networks (domain/dagconfig/genesis.go) and their hashes. */
export const GENESIS = {
  mainnet: {
    hash: '58c2d4199e21f910d1571d114969cecef48f09f934d42ccb6a281a15868f2999',
    hashMerkleRoot: '8ec898568c6801d13df4ee6e2a1b54b7e6236f671f20954f05306410518eeb32',
    utxoCommitment: '710f27df423e63aa6cdb72b89ea5a06cffa399d66f167704455b5af59def8e20',
    timestamp: 1637609671037n,
    bits: 486722099,
    nonce: 0x3392cn,
    daaScore: 1312860n,
  },
  testnet: {
    hash: 'f896a3034873be1739fc4359236899fd3d65d2bc94f9780df0d0da3eb1cc4370',
    hashMerkleRoot: '17341408a5724556504df4d6cf515cbfbb220430dc451c743c22d5e911720c2a',
    utxoCommitment: EMPTY_MUHASH,
    timestamp: 0x17c5f62fbb6n,
    bits: 0x1e7fffff,
    nonce: 0x14582n,
    daaScore: 0n,
  },
  simnet: {
    hash: '411f8cd26f3d41aea39e78573927da24d23995705b579f30959b9127e96b79e3',
    hashMerkleRoot: '1946d629f7e922a7bced59190521c3771f73d352ddbbb686564ad7fd56857c1b',
    utxoCommitment: EMPTY_MUHASH,
    timestamp: 0x17c5f62fbb6n,
    bits: 0x207fffff,
    nonce: 0x2n,
    daaScore: 0n,
  },
  devnet: {
    hash: 'b313870a32c704bdf1214a3b270cc475d942c2092d379bc8700ab043319ef846',
    hashMerkleRoot: '58abf20321d70716162b6bf8d9f589ca33ae6e32b3b19abb7fa65d1141a3f94d',
    utxoCommitment: EMPTY_MUHASH,
    timestamp: 0x11e9db49828n,
    bits: 525264379,
    nonce: 0x48e5en,
    daaScore: 0n,
  },
} as const;

export const GENESIS_ZERO_HASH = ZERO_HASH;
