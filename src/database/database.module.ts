/** The Postgres connection (Prisma), present only when database.url is configured (durable mode). */
import { DynamicModule, Global, Module } from '@nestjs/common';
import { PrismaService } from './prisma.service';

@Global()
@Module({})
export class DatabaseModule {
  static forRoot(enabled: boolean): DynamicModule {
    const providers = enabled ? [PrismaService] : [];
    return { module: DatabaseModule, providers, exports: providers };
  }
}
