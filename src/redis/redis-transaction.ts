import type { ChainableCommander } from 'ioredis';

/** Runs a MULTI and returns each command's reply; throws the first command error instead of burying it in the reply list. */
export async function execTransaction(transaction: ChainableCommander): Promise<unknown[]> {
  const results = await transaction.exec();
  if (!results) throw new Error('Redis transaction was discarded');
  for (const [error] of results) if (error) throw error;
  return results.map(([, reply]) => reply);
}
