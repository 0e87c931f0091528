-- CreateTable
CREATE TABLE "catalog_entries" (
    "kind" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "body" JSONB NOT NULL,
    "version" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "catalog_entries_pkey" PRIMARY KEY ("kind","name")
);

-- CreateTable
CREATE TABLE "catalog_state" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "revision" BIGINT NOT NULL,

    CONSTRAINT "catalog_state_pkey" PRIMARY KEY ("id")
);

-- The one row every change locks and bumps.
INSERT INTO "catalog_state" ("id", "revision") VALUES (1, 0);
