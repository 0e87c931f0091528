import { Injectable } from '@nestjs/common';
import { RedisChannel } from '../redis/redis-channel';
import { RedisService } from '../redis/redis.service';
import type { CatalogNoticeListener, CatalogNotices } from './catalog-notices';

/** Catalog revisions on a Redis channel: every API replica and worker subscribes. */
@Injectable()
export class RedisCatalogNotices implements CatalogNotices {
  private readonly listeners = new Set<CatalogNoticeListener>();
  private readonly channel: RedisChannel;

  constructor(redis: RedisService) {
    this.channel = new RedisChannel(redis, 'catalog-changes', {
      message: (text) => {
        const revision = Number(text);
        if (Number.isSafeInteger(revision)) for (const listener of this.listeners) listener.changed(revision);
      },
      connected: () => {
        for (const listener of this.listeners) listener.missed();
      },
    });
  }

  async announce(revision: number): Promise<void> {
    await this.channel.publish(String(revision));
  }

  async listen(listener: CatalogNoticeListener): Promise<void> {
    this.listeners.add(listener);
    await this.channel.subscribed();
  }
}
