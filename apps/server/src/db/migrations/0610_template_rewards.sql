-- Monero (issue 18): the block reward of the template the pool handed out at each height, from
-- monerod's get_block_template (expected_reward, atomic units). Monero's reward follows the coins
-- already emitted and the block's fees, not a halving schedule, so PPS credits of an XMR share
-- read the reward of its height here (Bitcoin-family coins compute their subsidy from the height).
CREATE TABLE template_rewards (
  coin        TEXT NOT NULL,
  height      INTEGER NOT NULL,
  reward      BIGINT NOT NULL CHECK (reward > 0),
  recorded_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (coin, height)
);
