-- Search finds items by words in their live comments (issue 66): `c.body ILIKE '%words%'` over every
-- comment would read them all; a trigram index answers it as the items' title and description
-- indexes (0001) answer theirs. Only live comments are searched, so only they are indexed.
CREATE INDEX "comments_body_trgm_idx" ON "comments" USING gin ("body" gin_trgm_ops) WHERE "deleted_at" IS NULL;
