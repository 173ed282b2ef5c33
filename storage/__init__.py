"""Storage: typed Parquet tables under COMPOWORLD_HOME, the shard manifest, the DuckDB catalog."""
