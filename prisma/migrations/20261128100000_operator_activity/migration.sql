-- AlterTable
ALTER TABLE "tasks" ADD COLUMN     "agent" TEXT;

-- CreateTable
CREATE TABLE "task_activity" (
    "id" BIGSERIAL NOT NULL,
    "task_id" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "kind" TEXT NOT NULL,
    "summary" TEXT NOT NULL,
    "duration_ms" INTEGER,
    "outcome" TEXT,
    "detail" JSONB,

    CONSTRAINT "task_activity_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "task_activity_task_idx" ON "task_activity"("task_id", "id");

-- CreateIndex
CREATE INDEX "tasks_operator_list_idx" ON "tasks"("status_timestamp" DESC, "id" DESC);

