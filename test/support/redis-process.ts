import Redis from 'ioredis';
import { StoreProcess } from './store-process';

/** A private redis-server that a test starts and stops itself (for outage tests). */
export class RedisProcess extends StoreProcess {
  static async start(): Promise<RedisProcess> {
    const redis = new RedisProcess(await StoreProcess.freePort());
    await redis.restart();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  protected command(): [string, string[]] {
    return ['redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']];
  }

  protected stopSignal(): NodeJS.Signals {
    return 'SIGKILL';
  }

  protected async answers(): Promise<boolean> {
    const probe = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      await probe.ping();
      await probe.quit();
      return true;
    } catch {
      probe.disconnect();
      return false;
    }
  }
}
