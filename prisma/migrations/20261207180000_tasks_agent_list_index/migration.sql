-- CreateIndex
CREATE INDEX "tasks_agent_list_idx" ON "tasks"("tenant", "owner", "agent", "status_timestamp" DESC, "id" DESC);

