// The Kaspa family (KAS) for the scripts: see ../families.mjs.
export default {
  // Kaspa's real node (go install of kaspad v0.12.22, scripts/kaspad.mjs); without Go, KAS is off
  // and the rest runs (its node tests fail with the same message).
  tools: [
    {
      name: 'kaspad',
      async ensure() {
        const { ensureKaspad } = await import('../kaspad.mjs');
        const kaspad = await ensureKaspad({ quiet: false });
        return kaspad.ok ? `kaspad ${kaspad.built ? 'built' : 'ready'} in ${kaspad.binDir}` : kaspad.reason;
      },
    },
  ],
  server: { assets: ['coins/kaspa/proto/kaspad.proto', 'coins/kaspa/proto/kaspawalletd.proto'] },
  tier: {
    vitest: [
      'apps/server/src/coins/kaspa/',
      'apps/server/src/config/families/kaspa',
      'packages/protocol/src/kaspa/',
      'e2e/kaspa',
    ],
    about: 'the Kaspa family (KAS): kaspad, kaspawallet, kHeavyHash',
  },
};
