-- Which process owns which shard: a claim per (shard_count, shard_id), held by the owner's
-- token until expires_at unless its heartbeat renews it. A claim whose expires_at has passed
-- belongs to nobody and may be taken.

CREATE TABLE shard_claims (
    shard_count INTEGER NOT NULL,
    shard_id INTEGER NOT NULL,
    owner TEXT NOT NULL,
    expires_at REAL NOT NULL,
    PRIMARY KEY (shard_count, shard_id)
);
