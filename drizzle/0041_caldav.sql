-- CalDAV (ARCHITECTURE §4 'CalDAV', SYNC.md V): what a calendar app wrote of an item that is no item
-- field, kept to be written back. `uid` is the client's UID when it is not the item's uuid (a UID
-- that is no UUID: the item's uuid derives from it); `name` the resource name it PUT the item under
-- when that is not '{uuid}.ics'; `kept` the VTODO's unknown lines (X-…, VALARM), its VTIMEZONEs and
-- its zoned DUE and DTSTART, as src/shared/vtodo.ts `VtodoKept` holds them.
CREATE TABLE "caldav_objects" (
	"item_id" integer PRIMARY KEY NOT NULL REFERENCES "items"("id") ON DELETE CASCADE,
	"uid" text,
	"name" text,
	"kept" jsonb DEFAULT '{"lines":[],"calendar":[],"due":null,"start":null}'::jsonb NOT NULL,
	CONSTRAINT "caldav_objects_uid_check" CHECK (char_length("uid") BETWEEN 1 AND 255),
	CONSTRAINT "caldav_objects_name_check" CHECK (char_length("name") BETWEEN 1 AND 255)
);
--> statement-breakpoint
CREATE INDEX "caldav_objects_name_idx" ON "caldav_objects" USING btree ("name") WHERE "name" IS NOT NULL;
--> statement-breakpoint
-- A calendar app names an item by its uuid alone (an href, a RELATED-TO): items_uuid_key leads with user_id.
CREATE INDEX "items_uuid_idx" ON "items" USING btree ("uuid");
