-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "tasks" (
    "id" TEXT NOT NULL,
    "tenant" TEXT NOT NULL,
    "owner" TEXT NOT NULL,
    "context_id" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "status_timestamp" TIMESTAMPTZ(3) NOT NULL,
    "data" JSONB NOT NULL,
    "version" INTEGER NOT NULL,
    "last_event_seq" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tasks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "task_events" (
    "task_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "event" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "task_events_pkey" PRIMARY KEY ("task_id","seq")
);

-- CreateTable
CREATE TABLE "push_configs" (
    "task_id" TEXT NOT NULL,
    "tenant" TEXT NOT NULL,
    "owner" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "config" JSONB NOT NULL,
    "wire_version" TEXT NOT NULL,
    "position" BIGSERIAL NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "push_configs_pkey" PRIMARY KEY ("task_id","tenant","owner","id")
);

-- CreateIndex
CREATE INDEX "tasks_scope_list_idx" ON "tasks"("tenant", "owner", "status_timestamp" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "tasks_state_updated_at_idx" ON "tasks"("state", "updated_at");

-- CreateIndex
CREATE INDEX "push_configs_created_at_idx" ON "push_configs"("created_at");

-- AddForeignKey
ALTER TABLE "task_events" ADD CONSTRAINT "task_events_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "tasks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

