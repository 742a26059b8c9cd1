from tests.support.backends import backend, db_target, storage

__all__ = ["backend", "db_target", "storage"]
