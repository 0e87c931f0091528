-- CreateTable
CREATE TABLE "audit_entries" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "actor" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "detail" JSONB,

    CONSTRAINT "audit_entries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "audit_entries_actor_idx" ON "audit_entries"("actor", "id" DESC);

-- CreateIndex
CREATE INDEX "audit_entries_action_idx" ON "audit_entries"("action", "id" DESC);

-- CreateIndex
CREATE INDEX "audit_entries_target_idx" ON "audit_entries"("target", "id" DESC);

-- CreateIndex
CREATE INDEX "audit_entries_at_idx" ON "audit_entries"("at");

