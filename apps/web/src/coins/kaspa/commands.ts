/**
 * The Kaspa GPU command lines, with the flags their developers publish: lolMiner takes the pool as
 * host:port (`--algo KASPA --pool --user`), BzMiner the stratum URL (`-a kaspa -w -p`).
 */
export function kaspaCommands(
  host: string,
  port: number,
  username: string,
): { lolminer: string; bzminer: string } {
  return {
    lolminer: `lolMiner --algo KASPA --pool ${host}:${port} --user ${username}`,
    bzminer: `bzminer -a kaspa -w ${username} -p stratum+tcp://${host}:${port}`,
  };
}
