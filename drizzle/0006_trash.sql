ALTER TABLE "items" ADD COLUMN "deleted_by" integer;--> statement-breakpoint
CREATE INDEX "items_deleted_idx" ON "items" USING btree ("deleted_at") WHERE "items"."deleted_at" IS NOT NULL;
