-- DropForeignKey
ALTER TABLE "task_events" DROP CONSTRAINT "task_events_task_id_fkey";

-- AlterTable
ALTER TABLE "tasks" DROP COLUMN "last_event_seq";

-- DropTable
DROP TABLE "task_events";

