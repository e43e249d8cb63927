// English server text: the source of the shared keys (see index.ts; a family's own texts are in
// its folder, coins/<family>/texts.ts). `{name}` is filled in; an object is a
// plural entry chosen by `count`.

export const EN = {
  'duration.lessThanMinute': 'less than a minute',
  'duration.minutes': { one: '{count} minute', other: '{count} minutes' },
  'duration.hours': { one: '{count} hour', other: '{count} hours' },
  'duration.days': { one: '{count} day', other: '{count} days' },
  'payout.every': { other: 'every {count} h' },

  'alert.workerOffline.title': 'Worker {worker} is offline',
  'alert.workerOffline.body':
    'Worker {worker} ({coin}) has sent no accepted share for {duration}. Last share: {lastShareAt}. Check its power, network and pool settings.',
  'alert.workerRecovered.title': 'Worker {worker} is back online',
  'alert.workerRecovered.body':
    'Worker {worker} ({coin}) is sending shares again since {backSince}, after about {duration} offline.',
  'alert.hashrateDrop.title': 'Hashrate of {worker} dropped',
  'alert.hashrateDrop.body':
    'Worker {worker} ({coin}) runs at {current}, below {percent}% of its 24 h average of {average}.',
  'alert.blockFound.title': 'Block {height} found',
  'alert.blockFound.body':
    'The pool found {coin} block {height} ({hash}){mine}. Its reward is credited when it matures.',
  'alert.blockFound.mine': ', with a share from one of your workers',
  'alert.blocksFound.title': {
    one: '{count} more {coin} block found',
    other: '{count} more {coin} blocks found',
  },
  'alert.blocksFound.body': {
    one: 'Between {from} and {to} the pool found {count} more {coin} block (height {fromHeight}){mine}. Its reward is credited when it matures.',
    other:
      'Between {from} and {to} the pool found {count} more {coin} blocks (heights {fromHeight} to {toHeight}){mine}. Their rewards are credited when they mature.',
  },
  'alert.blocksFound.mine': ', some with shares from your workers',
  'alert.payoutSent.title': 'Payout of {amount} sent',
  'alert.payoutSent.body': '{amount} was sent to {address}. Transaction: {txid}.',
  'alert.webhookTest.title': 'Manjam webhook test',
  'alert.webhookTest.body': 'Your Manjam alerts webhook works: worker and payout alerts will arrive here.',
  'email.brand': 'Manjam',
  'email.footer': 'You receive this email because email alerts are on in your Manjam settings.',

  'assistant.fallback': 'I couldn’t determine your exact question. Can you specify a coin or miner type?',
  'assistant.signIn': 'Sign in and I can answer from your real workers and balance.',
  'assistant.hardware.asic': 'ASIC miners',
  'assistant.hardware.gpu': 'GPU rigs',
  'assistant.hardware.cpu': 'CPUs',
  'assistant.fee': ' Fee {percent}%, payouts {every}.',
  'assistant.port.live': '{url} (live)',
  'assistant.port.notLive': 'port {port} (not live yet; live now: {live})',
  'assistant.algorithm': '{coin} uses {algorithm}: {ports}. Usually mined with {hardware}.{fee}',
  'assistant.port': '{coin} ({algorithm}) port: {ports}.',
  'assistant.example.account': 'account',
  'assistant.example.username': 'username',
  'assistant.setup.notLive': ' (once the port is live)',
  'assistant.setup.gpu':
    'GPU setup{notLive}: in your mining software set the pool URL to {url}, the username to your wallet address (or {user}), and the password to x.',
  'assistant.setup.asic':
    "ASIC setup{notLive}: open the miner's web page and under Pools set URL {url}, Worker {user} (or your wallet address followed by .worker1), Password x.",
  'assistant.profit':
    "To estimate profitability (ROI), enter your hashrate, power draw and electricity price at: {links} , or use Manjam's calculator: {calculator}",
  'assistant.hardware':
    'ASIC miners are built for one algorithm (SHA-256 for Bitcoin, Scrypt for Litecoin) and are the most efficient for it. GPU rigs suit algorithms such as KawPow, Etchash and Autolykos-v2; CPUs suit RandomX (Monero). Live on Manjam now: {live}.',
  'assistant.start':
    'To start: 1) create an account; 2) pick a worker name in the form {user}; 3) configure your miner or mining software; 4) enter the pool details: {url}, user {user}, password x; 5) watch your workers and earnings on the dashboard. Live ports: {live}.',
  'assistant.about':
    "Manjam is a mining pool for the MENA region. Live algorithms: {live}. Fees: {fees}. Payout scheme {scheme}, payouts {every} once a coin's balance reaches that coin's own threshold, which you choose per coin in Settings → Wallet: {thresholds}.",

  'assistant.hashrate.coin':
    '{coin} ({algorithm}): {now} over the last 10 minutes, 24 h average {day}; {online} of {workers} online',
  'assistant.hashrate.workers': { one: '{count} worker', other: '{count} workers' },
  'assistant.hashrate': 'Your hashrate — {parts}.',
  'assistant.hashrate.window':
    "Why a rig can read lower here than on the miner: the pool counts your hashrate from your accepted shares, not from what the miner reports. The main figure covers the last 10 minutes (for a worker that started less than 10 minutes ago, the time it has mined), and shares arrive at random, so over a few minutes it swings by 20 % or more; the 1 h and 24 h figures are steadier. Rejected and stale shares count nothing, while the miner's own figure counts every hash. If the 1 h figure stays well below the miner's average, look at the rejects and the miner's log.",
  'assistant.noWorkers':
    'You have no workers yet. Point a miner at the pool with a username like account.worker and it appears with its first accepted share.',
  'assistant.worker.unknown': "I can't find a worker named {asked}. Your workers: {known}.",
  'assistant.worker.offlineList':
    "Offline workers: {list}. The usual causes are power or network, a wrong pool URL or username, or a miner that stopped; name a worker and I'll look into it.",
  'assistant.worker.allOnline': "All your workers are online: {list}. Name one and I'll show its details.",
  'assistant.none': 'none',
  'assistant.worker.online':
    'Worker {worker} is online: last accepted share {ago} ago, hashrate {hashrate}, {rejects}% rejected in the last hour.',
  'assistant.worker.lastShare': 'its last accepted share was at {time} ({ago} ago)',
  'assistant.worker.noShare': 'it has not sent an accepted share yet',
  'assistant.worker.rejects':
    ' Before it stopped, {percent}% of its shares were rejected: check the algorithm and port.',
  'assistant.worker.offline':
    "Worker {worker} is offline: {since}.{rejects} Check its power and network, that it points at {url} with username {user} and password x, then read the miner's log.",
  'assistant.payout.due': 'now (the run is due)',
  'assistant.payout.reached':
    'your balance {balance} has reached your threshold {limit}, so it is paid in the next run',
  'assistant.payout.below': 'your balance {balance} is below your threshold {limit}; you need {missing} more',
  'assistant.payout': '{coin}: next payout run {next} ({every}); {state}.',
  'assistant.earnings.immature': 'Found blocks not yet mature will add {immature} once they mature.',
  'assistant.payout.noAddress':
    'You have not set a payout address yet, so nothing can be paid out: your unpaid balance ({balances}) waits at the pool until you do. Set it in Settings → Wallet, on the row of each coin you mine ({settings}); after that, payouts run {every} once your balance reaches your threshold {limit}.',
  'assistant.setup.cpu':
    'CPU setup{notLive}: mine {algorithm} with XMRig: set the pool URL to {url}, the username to {user} and the password to x (xmrig -o {url} -u {user} -p x). RandomX difficulty counts hashes: for another starting difficulty put d= in the password, e.g. x,d=15000 for a CPU doing about 1 kH/s. Earnings are in XMR, paid to the Monero address in Settings → Wallet (a standard address starts with 4, a subaddress with 8). Details: /mining/randomx.',
  'assistant.setup.cpuNotLive':
    '{algorithm} ({coin}) is not live on Manjam yet: port {port} does not accept shares, so a CPU cannot earn here today. Live now (ASIC miners): {live}.',
  'assistant.power.device':
    'The {device} ({hashrate}, {algorithm}) draws about {watts} W: {kwhDay} kWh a day, about {kwhMonth} kWh in 30 days. Its electricity cost a day is {kwhDay} × your price per kWh. Compare that with its expected earnings in the calculator ({calculator}).',
  'assistant.power.generic':
    "Electricity cost a day = watts × 24 ÷ 1000 × your price per kWh (a 3250 W miner uses 78 kWh a day). Name your miner's model (e.g. Antminer S19) and I'll work it out; compare the cost with the expected earnings in the calculator ({calculator}).",
  'assistant.earnings': 'Today (since 00:00 UTC) you earned {today}; your unpaid balance is {balance}.',
  'assistant.thresholds.coin': '{coin} {default} by default ({minimum} to {maximum})',
  'assistant.estimate':
    'Estimate for {hashrate} on {algorithm} ({coin}): about {daily} a day, {weekly} a week and {monthly} in 30 days, at the network difficulty the pool sees now ({difficulty}), a block reward of {reward} (the newest {coin} block the pool found) and the {fee} pool fee. Luck and difficulty move it; the calculator at /mining/calculator works any other figure.',
  'assistant.estimate.noDifficulty':
    'I cannot estimate {hashrate} on {algorithm} ({coin}) yet: the pool has no network difficulty for {coin} right now. The calculator at /mining/calculator estimates with a difficulty and block reward you enter.',
  'assistant.estimate.noBlock':
    'I cannot estimate {hashrate} on {algorithm} ({coin}) yet: the pool has found no {coin} block to take the block reward from. The calculator at /mining/calculator estimates with a block reward you enter.',
  'account.confirm.subject': 'Confirm your Manjam account',
  'account.confirm.body':
    'Someone (we hope you) registered the Manjam account "{username}" with this email address. To create it, open this link within {hours} hours:\n\n{link}\n\nIf this was not you, ignore this email: no account is created.',
  'account.taken.subject': 'Someone tried to register with your email',
  'account.taken.body':
    'Someone tried to register a new Manjam account with this email address, which already has an account. Nothing was changed. If it was you, sign in at {login}; if you forgot your password, contact support. If it was not you, you can ignore this email; your account stays as it is.',
  'email.confirm.subject': 'Confirm your new Manjam email address',
  'email.confirm.body':
    'The Manjam account "{username}" asked to use this email address from now on. To make the change, open this link within {hours} hours:\n\n{link}\n\nIf this was not you, ignore this email: nothing changes.',
  'email.taken.subject': 'Someone tried to move a Manjam account to your email',
  'email.taken.body':
    'Someone asked to move another Manjam account to this email address, which already has an account. Nothing was changed. If it was not you, you can ignore this email; your account stays as it is.',
  'email.changed.subject': 'Your Manjam email address was changed',
  'email.changed.body':
    'The Manjam account "{username}" now signs in with {email} instead of this address. If you did not make this change, contact support at once.',
  'password.reset.subject': 'Reset your Manjam password',
  'password.reset.body':
    'Someone (we hope you) asked to reset the password of the Manjam account "{username}". To choose a new password, open this link within {minutes} minutes (it works once):\n\n{link}\n\nIf this was not you, ignore this email: your password stays as it is.',
  'password.changed.subject': 'Your Manjam password was changed',
  'password.changed.body':
    'The password of the Manjam account "{username}" was just reset with a link sent to this address, and every session was signed out. If you did not do this, reset your password again at once and contact support.',
} as const;

export type StaticTextKey = keyof typeof EN;
