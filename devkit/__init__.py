"""Development helpers the tests and the benchmarks (tools/) share, outside the test tree:
``backends`` (a SQLite file or a throwaway PostgreSQL server per session) and
``live_tables`` (live tables around a forced deal, without Discord or storage)."""
