-- As sqlite/004: which process owns which shard, held until expires_at unless renewed.

CREATE TABLE shard_claims (
    shard_count INTEGER NOT NULL,
    shard_id    INTEGER NOT NULL,
    owner       TEXT    NOT NULL,
    expires_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (shard_count, shard_id)
);
