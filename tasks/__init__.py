"""Prefect tasks: thin wrappers that run one library function on one shard."""
